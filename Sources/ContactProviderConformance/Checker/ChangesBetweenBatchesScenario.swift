import AppGroupStore
import ContactProviderSystem
import Foundation

/// D11 (issue 30, item 12): changes between two batches of one change session.
///
/// A change session of several batches; after the first batch is committed, the app adds contacts
/// whose identifiers sort before and after every other, deletes one contact the session already
/// handed over and one it has not, and renames one. The system must then converge on the data: a
/// provider that pages a list of changes it recomputes at every batch by position skips a change here.
struct ChangesBetweenBatchesScenario {
    /// Contacts of the scenario.
    static let contacts = 12
    /// Contacts updated before the session: more changes than three batches hold at the kit's batch size.
    static let updatedBeforeTheSession = 9

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.d11)
        let records = try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.d11]) != nil else { return }
        let backend = checker.backend
        for record in records.prefix(Self.updatedBeforeTheSession) { try backend.update(checker.edited(record)) }
        let (first, transcript) = try await checker.systemSync(maxSteps: 1)
        if let error = first.error {
            checker.record(
                .d11,
                Finding(
                    explanation: "the first batch of the change session failed: \(error.message)",
                    step: "change batch 1", transcript: transcript))
            return
        }
        // The updates the first batch handed over: their new values are in the system already.
        let data = Dictionary(try backend.contacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let handedOver = Set(
            try checker.subject.systemContacts().filter { contact in
                data[contact.identifier].map { backend.comparable($0) == backend.comparable(contact) } ?? false
            }.map(\.identifier))
        var early = checker.makeContact()
        early.identifier = "0000 \(checker.scenarioData.identifierPrefix) early"
        var late = checker.makeContact()
        late.identifier = "~~~~ \(checker.scenarioData.identifierPrefix) late"
        try backend.add(early)
        try backend.add(late)
        checker.contactShapes[early.identifier] = "identifier sorts before every other; added between two batches"
        checker.contactShapes[late.identifier] = "identifier sorts after every other; added between two batches"
        let updated = records.prefix(Self.updatedBeforeTheSession).map(\.identifier)
        if let sent = updated.first(where: { handedOver.contains($0) }) { try backend.delete(identifier: sent) }
        if let pending = updated.last(where: { !handedOver.contains($0) }) { try backend.delete(identifier: pending) }
        // records[10] is as written: it is not among the nine edited.
        var renamed = records[10]
        renamed.familyName = "Aardvark"
        try backend.update(renamed)
        try await checker.systemConverges(
            rule: .d11,
            step:
                "the rest of a change session after \(early.identifier) and \(late.identifier) were added, a contact handed over in its first batch and one not yet handed over were deleted, and one renamed"
        )
    }
}
