import AppGroupStore
import ContactProviderSystem
import Foundation

/// D9: edits made while the provider is inside an enumerator call (after it delivered items, before
/// it returned) must arrive, at the latest with the next sync.
///
/// After a content sync and one pending update, the next sync pauses the provider inside its first
/// change batch that carries items (`MidCallPause`); while it is paused, another thread updates one
/// contact, adds one and deletes one. The system must then converge on the data: a provider whose
/// last anchor is the store's head when the call ends, not where its read stopped, skips these edits.
struct MidCallWritesScenario {
    /// Contacts of the scenario.
    static let contacts = 6

    let checker: ConformanceChecker

    func run() async throws {
        let records = try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.d9]) != nil else { return }
        // A pending change, so the next sync's first batch carries items (where the pause happens).
        try checker.backend.update(checker.edited(records[0]))
        let armed = try MidCallPause.Armed(MidCallPause(runDirectory: checker.subject.paths.runDirectory))
        let store = UncheckedBackend(checker.backend)
        let edit = checker.edited(records[1])
        let added = checker.makeContact()
        let victim = records[2].identifier
        let wait = checker.options.timeoutSeconds * 2 + 5
        // The edits happen on their own thread while this task is inside the sync.
        let editor = Task {
            try await offload { () throws -> Bool in
                defer { armed.resume() }
                guard armed.waitUntilPaused(timeoutSeconds: wait) else { return false }
                try store.backend.update(edit)
                try store.backend.add(added)
                try store.backend.delete(identifier: victim)
                return true
            }
        }
        let (report, transcript) = try await checker.systemSync(maxSteps: .max)
        guard try await editor.value else {
            checker.recordBlocked(
                [.d9], step: "sync with a pending change",
                because:
                    "the provider delivered no items during a sync with a pending change, so there was no call to write into (see D2)",
                transcript: transcript)
            return
        }
        if let error = report.error {
            checker.record(
                .d9,
                Finding(
                    explanation: "the sync during which the data was edited failed: \(error.message)",
                    step: "sync paused inside a call", transcript: transcript))
            return
        }
        try await checker.systemConverges(
            rule: .d9,
            step:
                "syncs after \(edit.identifier) was updated, \(added.identifier) added and \(victim) deleted while the provider was inside an enumerator call (after its first items, before it returned)"
        )
    }
}

/// The backend, handed to the thread that edits while the provider is paused; the scenario does
/// not touch it until that thread is done.
private final class UncheckedBackend: @unchecked Sendable {
    let backend: ConformanceBackend
    init(_ backend: ConformanceBackend) { self.backend = backend }
}
