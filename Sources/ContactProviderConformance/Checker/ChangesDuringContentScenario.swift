import AppGroupStore
import ContactProviderSystem
import Foundation

/// D3: edits between two content pages must arrive with the first change enumeration.
///
/// After the system commits the first content page, the app edits two contacts already delivered,
/// deletes one, adds one, and renames two so that they move across the pages (a delivered contact
/// now sorts last by name, one not yet delivered first). The system finishes the content
/// enumeration, syncs the changes, and must then hold exactly the data: a provider whose change
/// enumeration starts from the end of content, not from its beginning, loses the edits made
/// during it (R29).
/// ``ShrinkingContentScenario`` checks D3 again with contacts of later pages deleted.
struct ChangesDuringContentScenario {
    /// Contacts of the scenario: three pages at the kit's page size.
    static let contacts = 12

    let checker: ConformanceChecker

    func run() async throws {
        try checker.freshData(count: Self.contacts)
        let (first, firstTranscript) = try await checker.systemSync(maxSteps: 1)
        if let error = first.error {
            checker.record(
                .d3,
                Finding(
                    explanation: "the first content page failed: \(error.message)", step: "content page 1",
                    transcript: firstTranscript))
            return
        }
        let data = Dictionary(
            try checker.backend.contacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let delivered = try checker.subject.systemContacts().compactMap { data[$0.identifier] }
        // Edit contacts that were already delivered, delete one, add one: all while content is mid-way.
        for record in delivered.prefix(2) { try checker.backend.update(checker.edited(record)) }
        if let victim = delivered.dropFirst(2).last { try checker.backend.delete(identifier: victim.identifier) }
        try checker.backend.add(checker.makeContact())
        // Renames (item 12): a delivered contact now sorts last by name, one not yet delivered first,
        // so a provider that pages by name or position meets a list that moved under it.
        let deliveredIDs = Set(delivered.map(\.identifier))
        if var last = delivered.dropFirst(2).first {
            last.givenName = "Zyta"
            last.familyName = "Zzyzx"
            try checker.backend.update(last)
        }
        if var first = data.values.sorted(by: { $0.identifier < $1.identifier }).first(where: {
            !deliveredIDs.contains($0.identifier)
        }) {
            first.givenName = "Aaron"
            first.familyName = "Aardvark"
            try checker.backend.update(first)
        }
        try await checker.systemConverges(
            rule: .d3,
            step:
                "content enumeration finished after edits, a deletion, an addition and renames made between its pages, then a change enumeration"
        )
    }
}
