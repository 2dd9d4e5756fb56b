import AppGroupStore
import ContactProviderSystem
import Foundation

/// L1–L3: the extension's lifecycle.
///
/// L1: a freshly launched extension answers its first `enumerateContent`. L2: `invalidate()`
/// returns, without an error, within the call limit. L3: after a content sync and a few edits, the
/// extension is killed and relaunched, and the next sync must bring the edits as changes from the
/// committed anchor: a provider that keeps its anchors in memory expires them at every launch, and
/// the system re-enumerates the whole content each time.
struct LifecycleScenario {
    /// Contacts of each part of the scenario.
    static let contacts = 5

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.l1)
        try checker.freshData(count: Self.contacts)
        try await checker.subject.restart()
        let first = try await checker.subject.probe(
            ProbeRequest(kind: .content, position: .initial, size: checker.options.pageSize))
        if first.end == nil || first.timedOut {
            checker.record(
                .l1,
                Finding(
                    explanation: "a freshly started extension did not answer its first enumerateContent",
                    step: "first request after launch", transcript: first.transcript))
        }
        checker.checking(.l2)
        let (seconds, error) = try await checker.subject.invalidate()
        if let error {
            checker.record(.l2, Finding(explanation: error, step: "invalidate()"))
        } else if seconds > checker.options.timeoutSeconds {
            checker.record(
                .l2,
                Finding(
                    explanation: String(
                        format: "invalidate() took %.1f s; the limit is %.1f s", seconds, checker.options.timeoutSeconds
                    ),
                    step: "invalidate()"))
        }

        checker.checking(.l3)
        try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.l3]) != nil else { return }
        try checker.mutate(updates: 2, deletes: 1, adds: 1)
        try await checker.subject.restart()
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        if report.restarted {
            checker.record(
                .l3,
                Finding(
                    explanation:
                        "after a restart the provider expired the committed anchor, forcing a full re-enumeration",
                    step: "sync after restart", transcript: transcript))
        } else if let error = report.error {
            checker.record(
                .l3,
                Finding(
                    explanation: "the sync after a restart failed: \(error.message)", step: "sync after restart",
                    transcript: transcript))
        } else if let difference = checker.difference(
            system: try checker.subject.systemContacts(), data: try checker.backend.contacts())
        {
            checker.record(
                .l3,
                Finding(
                    explanation: "after a restart: \(difference)", step: "sync after restart", transcript: transcript))
        }
    }
}
