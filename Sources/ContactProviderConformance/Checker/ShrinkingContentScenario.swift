import AppGroupStore
import ContactProviderSystem
import Foundation

/// D3, issue 43 class 4: the data shrinks under a content enumeration. D3's first scenario deletes a
/// contact already delivered; a provider that takes a short page for the last one, or counts the
/// pages left from a total read before the deletion, passes it, and on a device drops every contact
/// after the page the deleted one was on. Here, after the system commits page 1, two contacts not yet
/// delivered are deleted from the app's store: the first of them in the store's order (on page 2 of a
/// provider that pages in that order, so its page 2 comes out short while pages follow) and one more
/// chosen by the seed. The system finishes the enumeration, syncs the changes, and must then hold
/// exactly the app's store (R25, R29).
struct ShrinkingContentScenario {
    /// Contacts of the scenario: three pages at the kit's page size.
    static let contacts = 12

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.d3)
        // Identifiers of their own, none shared with the rule's first scenario (a provider's memory could tie them).
        checker.scenarioData.identifierPrefix += "-shrinking"
        try checker.freshData(count: Self.contacts)
        let (first, _) = try await checker.systemSync(maxSteps: 1)
        // D3's first scenario reports a first page that fails; one that ends content has no later page.
        guard first.error == nil, first.anchor == nil else { return }
        let delivered = Set(try checker.subject.systemContacts().map(\.identifier))
        let undelivered = try checker.backend.contacts().filter { !delivered.contains($0.identifier) }
        guard let next = undelivered.first else { return }
        var deleted = [next.identifier]
        if let another = checker.randomElement(Array(undelivered.dropFirst())) { deleted.append(another.identifier) }
        for identifier in deleted { try checker.backend.delete(identifier: identifier) }
        try await checker.systemConverges(
            rule: .d3,
            step:
                "content enumeration finished after \(ConformanceChecker.list(deleted)), not yet delivered, were deleted between pages 1 and 2, then a change enumeration"
        )
    }
}
