import AppGroupStore
import ContactProviderSystem
import Foundation

/// D8: an identifier deleted and added again, in one batch window and across batches.
///
/// First a contact is deleted and a new one added under its identifier before the provider is asked
/// (one batch window); then another is deleted, that deletion synced, and the identifier comes back
/// as a new contact. After each the system must converge on the data: a provider that remembers an
/// identifier as deleted for good, or merges the two changes into none, loses the new contact.
struct ReusedIdentifierScenario {
    /// Contacts of the scenario.
    static let contacts = 4

    let checker: ConformanceChecker

    func run() async throws {
        let records = try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.d8]) != nil else { return }
        // In one batch window: deleted and added again before the provider is asked.
        var again = checker.makeContact()
        again.identifier = records[0].identifier
        try checker.backend.delete(identifier: again.identifier)
        try checker.backend.add(again)
        try await checker.systemConverges(
            rule: .d8, step: "sync after \(again.identifier) was deleted and added again before one signal")
        guard !checker.failed(.d8) else { return }
        // Across batches: the deletion is synced first, then the identifier comes back.
        let identifier = records[1].identifier
        try checker.backend.delete(identifier: identifier)
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        if let error = report.error {
            checker.record(
                .d8,
                Finding(
                    explanation: "the sync of a deletion failed: \(error.message)",
                    step: "sync after deleting \(identifier)", transcript: transcript))
            return
        }
        var back = checker.makeContact()
        back.identifier = identifier
        try checker.backend.add(back)
        try await checker.systemConverges(
            rule: .d8, step: "sync after \(identifier), deleted by the previous sync, was added again")
    }
}
