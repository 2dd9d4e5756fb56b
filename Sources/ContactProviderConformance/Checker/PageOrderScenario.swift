import AppGroupStore
import ContactProviderSystem
import Foundation

/// C5, issue 43 class 6: page order that changes from call to call. A provider that sorts by name and
/// breaks ties by hash or `Set` order gives each call its own order of the tied contacts, so the same
/// page holds other contacts from one call to the next; with one tied pair in the data, one repeat
/// catches it in some runs and misses it in others. This scenario leaves nothing to luck: every
/// contact has the same name (so every page boundary cuts through ties), and each page is asked again
/// in the same process and in a relaunched one (a new process hashes with a new seed, as after the
/// system relaunches an extension before committing a page), while its enumeration still runs.
/// A tie-broken order then keeps the same first page with a chance of 1 in C(12, 4) = 495 per repeat.
struct PageOrderScenario {
    /// Contacts of the scenario, all with one name: three pages and more at the kit's page size.
    static let contacts = 12
    /// Repeats of each page in the same process, before the one in a relaunched provider.
    static let repeatsInProcess = 2
    /// The name every contact of the scenario has.
    static let sharedName = (given: "Robin", family: "Quinn")

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.c5)
        try checker.backend.reset()
        try checker.subject.resetSystem()
        for _ in 0..<Self.contacts {
            var contact = checker.makeContact()
            contact.givenName = Self.sharedName.given
            contact.familyName = Self.sharedName.family
            contact.organizationName = ""
            try checker.backend.add(contact)
        }
        var position = SyncPosition.initial
        for number in 1...Self.contacts + 1 {
            let first = try await checker.subject.probe(
                ProbeRequest(kind: .content, position: position, size: checker.options.pageSize))
            // C1–C4 and C6 are the content walk's; here a page that does not end cleanly ends the scenario.
            guard first.violations.isEmpty, !first.timedOut, case .page = first.end else { return }
            let inProcess =
                "content page of \(Self.contacts) contacts of one name (\(Self.sharedName.given) \(Self.sharedName.family)), in the same process: page"
            guard
                try await checker.repeatPage(
                    position, number: number, first: first, times: Self.repeatsInProcess, step: inProcess) != nil
            else { return }
            try await checker.subject.restart()
            // A provider whose pages live in its process's memory may answer pageExpired once it was
            // relaunched: the system then starts again (R27); its page order was checked in one process.
            guard
                let relaunched = try await checker.repeatPage(
                    position, number: number, first: first, expiryAllowed: true,
                    step: "content page of contacts of one name, after a relaunch: page"),
                case .page(let next) = relaunched.end
            else { return }
            position = next
        }
    }
}
