import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// E1: after the data forgets its generation, the old anchor must expire (or yield the full truth).
    func expiryRule() async throws {
        try freshData(count: 6)
        guard let anchor = try await completeContent(rules: [.e1]) else { return }
        try backend.reset()
        for _ in 0..<3 { try backend.add(makeContact()) }
        if options.resetCallsManagerReset {
            // As the app does: the system forgets the domain with the data, so no anchor from before
            // the reset is ever asked for; the next sync must bring the system to the new data.
            try subject.resetSystem()
            return try await systemConverges(
                rule: .e1, step: "sync after the app reset its store and called ContactProviderManager.reset()")
        }
        var system = Dictionary(
            try subject.systemContacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        var position = anchor
        var transcript: [String] = []
        for index in 0..<40 {
            let step = "after a reset of the data, enumerateChanges(startingAt: \(position)) (batch \(index + 1))"
            let result = try await subject.probe(ProbeRequest(kind: .changes, position: position, size: 100))
            transcript += result.transcript
            switch result.end {
            case .error(let code, _) where code == "changeAnchorExpired" || code == "pageExpired":
                return try await systemConverges(rule: .e1, step: "full re-enumeration after the expiry")
            case .batch(let next, let moreComing):
                for item in result.items { system[item.identifier] = item }
                for identifier in result.deleted { system[identifier] = nil }
                if !moreComing {
                    if let difference = difference(system: Array(system.values), data: try backend.contacts()) {
                        record(
                            .e1,
                            Finding(
                                explanation:
                                    "the anchor's generation was forgotten but the provider answered with changes instead of changeAnchorExpired, leaving: \(difference)",
                                step: step, transcript: transcript))
                    }
                    return
                }
                if next == position { return }
                position = next
            default:
                record(
                    .e1,
                    Finding(
                        explanation: "the provider gave no valid answer to a forgotten anchor", step: step,
                        transcript: transcript))
                return
            }
        }
    }

    /// L1–L3.
    func lifecycleRules() async throws {
        checking(.l1)
        try freshData(count: 5)
        try await subject.restart()
        let first = try await subject.probe(ProbeRequest(kind: .content, position: .initial, size: options.pageSize))
        if first.end == nil || first.timedOut {
            record(
                .l1,
                Finding(
                    explanation: "a freshly started extension did not answer its first enumerateContent",
                    step: "first request after launch", transcript: first.transcript))
        }
        checking(.l2)
        let (seconds, error) = try await subject.invalidate()
        if let error {
            record(.l2, Finding(explanation: error, step: "invalidate()"))
        } else if seconds > options.timeoutSeconds {
            record(
                .l2,
                Finding(
                    explanation: String(
                        format: "invalidate() took %.1f s; the limit is %.1f s", seconds, options.timeoutSeconds),
                    step: "invalidate()"))
        }

        checking(.l3)
        try freshData(count: 5)
        guard try await completeContent(rules: [.l3]) != nil else { return }
        try mutate(updates: 2, deletes: 1, adds: 1)
        try await subject.restart()
        let (report, transcript) = try await syncUntilCaughtUp()
        if report.restarted {
            record(
                .l3,
                Finding(
                    explanation:
                        "after a restart the provider expired the committed anchor, forcing a full re-enumeration",
                    step: "sync after restart", transcript: transcript))
        } else if let error = report.error {
            record(
                .l3,
                Finding(
                    explanation: "the sync after a restart failed: \(error.message)", step: "sync after restart",
                    transcript: transcript))
        } else if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
            record(
                .l3,
                Finding(
                    explanation: "after a restart: \(difference)", step: "sync after restart", transcript: transcript))
        }
    }
}
