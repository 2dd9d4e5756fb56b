import AppGroupStore
import ContactProviderSystem
import Foundation

/// T1, issue 43 class 5: the store fails between two content pages. The first T1 scenario breaks
/// the store during a change sync, once content is complete; a provider that ends a content
/// enumeration as a success when a read fails mid-way (`didFinishEnumeratingContent(upTo:)` with
/// the pages read so far) passes it, and on a device the system then holds only the pages before
/// the failure: every contact of the later pages is gone, and no change sync brings them back,
/// since none of them changed. Here the system commits one content page, the store fails for the
/// next page's read, and is readable again: the provider must fail that page with an error other
/// than an expiry (R28: the system asks for the page again from the last committed one; an expiry
/// restarts content, R27), never end content there.
struct ContentFailureScenario {
    /// Contacts of the scenario: three pages at the kit's page size, so pages follow the failure.
    static let contacts = 12

    let checker: ConformanceChecker

    func run() async throws {
        guard
            let failing = try checker.startTransientFailureScenario(
                identifiers: "-between-pages", contacts: Self.contacts)
        else { return }
        let (first, firstTranscript) = try await checker.systemSync(maxSteps: 1)
        // C1–C4 judge a content enumeration that fails alone; one that ends at its first page has no
        // page between which the store could fail.
        guard first.error == nil, first.anchor == nil else { return }
        let description = try failing.beginTransientFailure()
        let outcome: (SyncReport, [String])
        do {
            outcome = try await checker.systemSync(maxSteps: 1)
        } catch {
            try failing.endTransientFailure()
            throw error
        }
        try failing.endTransientFailure()
        let data = try checker.backend.contacts()
        if outcome.0.error == nil, outcome.0.anchor != nil {
            let held = try checker.subject.systemContacts()
            if let difference = checker.difference(system: held, data: data) {
                checker.record(
                    .t1,
                    Finding(
                        explanation:
                            "while the store could not be read (\(description)) between two content pages, the provider ended the content enumeration as complete, so the system holds \(held.count) of the \(data.count) contacts and no change sync brings the rest back (none of them changed): \(difference). Answer a read that fails mid-way with an error other than pageExpired, and the system asks for the page again from the last committed one (R28)",
                        step: "content page 2 while the store failed",
                        transcript: firstTranscript + outcome.1))
                return
            }
        }
        try await checker.systemConverges(
            rule: .t1,
            step: "signal after the store could be read again, with the content enumeration interrupted after page 1")
    }
}
