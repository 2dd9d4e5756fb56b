import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// A sync through the system; the warnings it raised are kept for rule W1.
    func systemSync(maxSteps: Int, expectedCalls: Int = 1) async throws -> (SyncReport, [String]) {
        let outcome = try await subject.sync(maxSteps: maxSteps, expectedCalls: expectedCalls)
        providerAnswered = true
        for warning in outcome.0.warnings {
            systemWarnings.append((warning, outcome.1))
        }
        return outcome
    }

    /// Syncs until the system is caught up (a change enumeration that completes), at most `attempts` times;
    /// then signals once more, which must bring nothing (rule D10).
    @discardableResult
    func syncUntilCaughtUp(attempts: Int = 4) async throws -> (SyncReport, [String]) {
        var last: (SyncReport, [String])?
        for _ in 0..<attempts {
            let outcome = try await systemSync(maxSteps: .max)
            last = outcome
            if outcome.0.error != nil { return outcome }
            if outcome.0.enumeration == "changes" {
                try await checkIdleResync(after: outcome)
                return outcome
            }
        }
        return last!
    }

    /// D10: right after a sync that caught up, nothing has changed, so a signal must bring nothing.
    private func checkIdleResync(after caughtUp: (SyncReport, [String])) async throws {
        guard options.rules?.contains(.d10) ?? true, !failed(.d10) else { return }
        let (report, transcript) = try await systemSync(maxSteps: .max)
        guard report.error == nil, report.updated + report.deleted > 0 || report.enumeration != "changes" else {
            return
        }
        let previous = caughtUp.0.anchor.map { "\($0)" } ?? "none"
        let cause =
            caughtUp.0.warnings.first { $0.hasPrefix(FrameworkRule.r40.id) }.map {
                " The sync before warned: \($0) — so every sync re-sends it."
            }
            ?? " The sync before ended at anchor \(previous); the provider's last batch must return an anchor past the changes it sent (R40)."
        let symptom =
            "a signal right after a sync that caught up brought \(SizeScenario.counted(report.updated, "update")) and \(SizeScenario.counted(report.deleted, "deletion")) although nothing had changed."
        // The anchor is blamed only when the batch before did not move it past what it sent: one that
        // did, and ended the session with changes left, got moreComing wrong (issue 43, item 8).
        let explanation: String
        if report.enumeration != "changes" {
            explanation =
                "a signal right after a sync that caught up started a \(report.enumeration) enumeration instead of an empty change batch"
        } else if let mistake = LikelyMistake.moreComingEndedEarly(
            before: caughtUp.1, after: transcript, updated: report.updated, deleted: report.deleted)
        {
            explanation = LikelyMistake.explained(symptom, by: mistake)
        } else {
            explanation = symptom + cause
        }
        record(
            .d10,
            Finding(
                explanation: explanation, step: "signal right after a sync that caught up",
                transcript: caughtUp.1.suffix(12) + transcript))
    }

    /// Commits a full content enumeration through the system; returns the first anchor.
    func completeContent(rules: [ConformanceRule]) async throws -> SyncPosition? {
        let (report, transcript) = try await systemSync(maxSteps: .max)
        guard report.error == nil, let anchor = report.anchor else {
            recordBlocked(
                rules,
                because:
                    "the content enumeration it needs failed (\(report.error?.message ?? "no anchor")); see rules C1–C5",
                transcript: transcript)
            return nil
        }
        return anchor
    }

    /// Syncs through the system until caught up and checks the system store equals the data.
    func systemConverges(rule: ConformanceRule, step: String = "sync through the system") async throws {
        let (report, transcript) = try await syncUntilCaughtUp()
        if let error = report.error {
            record(rule, Finding(explanation: "the sync failed: \(error.message)", step: step, transcript: transcript))
            return
        }
        if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
            record(rule, Finding(explanation: difference, step: step, transcript: transcript))
        }
    }

    /// W1: the first warnings the system raised during the kit's syncs.
    func recordSystemWarnings() {
        guard let first = systemWarnings.first else { return }
        let distinct = systemWarnings.map(\.warning).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        record(
            .w1,
            Finding(
                explanation: "the system warned \(systemWarnings.count) time(s) during the kit's syncs: "
                    + distinct.prefix(3).joined(separator: "; ")
                    + (distinct.count > 3 ? "; and \(distinct.count - 3) more" : ""),
                step: "a sync through the system", transcript: first.transcript))
    }
}
