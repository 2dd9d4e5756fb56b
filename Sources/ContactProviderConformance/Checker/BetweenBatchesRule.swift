import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// D11 (issue 30, item 12): a change session of several batches; after the first batch is
    /// committed, the app adds contacts whose identifiers sort before and after every other, deletes
    /// one contact the session already handed over and one it has not, and renames one. A provider
    /// that pages a list of changes it recomputes at every batch by position skips a change here.
    func changesBetweenBatchesRule() async throws {
        checking(.d11)
        let records = try freshData(count: 12)
        guard try await completeContent(rules: [.d11]) != nil else { return }
        // More changes than three batches hold.
        for record in records.prefix(9) { try backend.update(edited(record)) }
        let (first, transcript) = try await systemSync(maxSteps: 1)
        if let error = first.error {
            record(
                .d11,
                Finding(
                    explanation: "the first batch of the change session failed: \(error.message)",
                    step: "change batch 1", transcript: transcript))
            return
        }
        // The updates the first batch handed over: their new values are in the system already.
        let data = Dictionary(try backend.contacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let handedOver = Set(
            try subject.systemContacts().filter { contact in
                data[contact.identifier].map { backend.comparable($0) == backend.comparable(contact) } ?? false
            }.map(\.identifier))
        var early = makeContact()
        early.identifier = "0000 \(scenarioData.identifierPrefix) early"
        var late = makeContact()
        late.identifier = "~~~~ \(scenarioData.identifierPrefix) late"
        try backend.add(early)
        try backend.add(late)
        contactShapes[early.identifier] = "identifier sorts before every other; added between two batches"
        contactShapes[late.identifier] = "identifier sorts after every other; added between two batches"
        let updated = records.prefix(9).map(\.identifier)
        if let sent = updated.first(where: { handedOver.contains($0) }) { try backend.delete(identifier: sent) }
        if let pending = updated.last(where: { !handedOver.contains($0) }) { try backend.delete(identifier: pending) }
        // records[10] is as written: it is not among the nine edited.
        var renamed = records[10]
        renamed.familyName = "Aardvark"
        try backend.update(renamed)
        try await systemConverges(
            rule: .d11,
            step:
                "the rest of a change session after \(early.identifier) and \(late.identifier) were added, a contact handed over in its first batch and one not yet handed over were deleted, and one renamed"
        )
    }
}
