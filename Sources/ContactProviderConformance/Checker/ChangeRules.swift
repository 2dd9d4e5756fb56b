import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
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
