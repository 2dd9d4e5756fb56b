import AppGroupStore
import ContactProviderSystem
import Foundation

/// T1, issue 43 item 12: the store is torn when the provider starts. T1's other scenarios break the
/// store while a provider that already read it runs; a provider that reads its store once, when it
/// starts, and takes a store it cannot read for an empty one (the seed demo's `ContactItemDatabase`:
/// `try?` around the read and the decoding) passes them. On a device the app saves while the system
/// launches the extension: the provider reads a half-written file, reports a complete, empty content
/// enumeration, and keeps that empty list; the save completes, the app signals, and the change
/// enumeration brings nothing, so the system holds none of the app's contacts, for good (a complete
/// content enumeration is final, R25). Here the app's save of fresh contacts is half done when the
/// provider is launched and asked for content; then the save completes, the app signals, and the
/// system must hold exactly the data: a provider that cannot read its store fails the call with an
/// error other than an expiry (the system asks again, R28, R39), or reads the store again at the next
/// enumeration, never reports it empty.
///
/// Torn as each backend's real writes tear (``TransientFailureInjecting``): `seed-json` leaves the
/// first half of the file, as the seed app's in-place save does. The App Group database cannot tear
/// that way: its save appends under the writer's lock, and a reader ignores the torn tail of a
/// half-done append (it reads the store as before the save), so the kit breaks it with the
/// unreadable journal line of a disk error instead. An `exec:` adapter breaks its store as its
/// `break-store` says. A CardDAV server's PUT is atomic, so its store never tears; what a provider
/// that reads once at start meets there is the server failing as it starts: `carddav:` answers the
/// provider's requests with `503 Service Unavailable` through the kit's proxy
/// (``CardDAVBackend/startFailureProxy()``), the same mistake's other trigger. A backend that cannot
/// fail at all skips T1 (``StoreFailureDuringSyncScenario`` says so).
struct TornStoreAtStartScenario {
    /// Contacts of the app's save: the four (one content page at the kit's page size).
    static let contacts = 4

    let checker: ConformanceChecker

    func run() async throws {
        guard
            let failing = try checker.startTransientFailureScenario(
                identifiers: "-torn-at-start", contacts: Self.contacts)
        else { return }
        let description = try failing.beginTransientFailure()
        let during: (SyncReport, [String])
        do {
            // A provider started now, while the save is half done: the one the scenario began with
            // is ended, and the system launches a fresh one for its content enumeration.
            try await checker.subject.restart()
            during = try await checker.systemSync(maxSteps: .max)
        } catch {
            try failing.endTransientFailure()
            guard ConformanceChecker.isStartFailure(error) else { throw error }
            // Not "could not start": the provider started on a readable store in the other scenarios, and
            // `--rules T1`, as a reproduce line runs it, must report this failure, not end the run.
            checker.record(
                .t1,
                Finding(
                    explanation:
                        "the provider was started and asked for content while the store could not be read (\(description)), and it did not answer: \(error). A store that cannot be read for a moment is no reason to end: fail the call with an error other than pageExpired, and the system asks again (R28)",
                    step: "content enumeration while the store could not be read"))
            return
        }
        try failing.endTransientFailure()
        // The save completes and the app signals.
        let step = "signal after the store could be read again, the provider having started while it could not"
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        if let error = report.error {
            checker.record(
                .t1,
                Finding(
                    explanation:
                        "after the store could be read again, the sync failed: \(error.message). The provider was started while the store could not be read (\(description))",
                    step: step, transcript: during.1 + transcript))
            return
        }
        let held = try checker.subject.systemContacts()
        let data = try checker.backend.contacts()
        guard let difference = checker.difference(system: held, data: data) else { return }
        let answered =
            during.0.error.map { "it answered the content enumeration with: \($0.message)" }
            ?? "it ended the content enumeration as complete with \(during.0.systemCount) contacts"
        checker.record(
            .t1,
            Finding(
                explanation:
                    "the provider was started and asked for content while the store could not be read (\(description)); \(answered). After the store could be read again (the save complete) and the app signalled, the system holds \(held.count) of the \(data.count) contacts: \(difference). A provider that cannot read its store must not report it empty: fail the call with an error other than pageExpired, and the system asks again (R28, R39), or read the store again at the next enumeration; a content enumeration that ends complete is final (R25), so the contacts of the save arrive only as changes",
                step: step, transcript: during.1 + transcript))
    }
}
