import AppGroupStore
import ContactProviderSystem
import Foundation

/// T1: the store fails for the length of one sync (issue 30, item 10).
///
/// With the content complete and one contact pending, the backend makes every read of the store fail
/// while the system syncs; then the store comes back with the data it had. A provider that answers the
/// failure with `pageExpired` or `changeAnchorExpired` makes the system discard every contact of the
/// domain (R27, R38); a resumable error keeps them, and the system asks again (R28, R39). After the
/// failure the system must still hold what it had, and the next signal must deliver what was pending.
/// T1's other scenarios break the store when the provider starts (``TornStoreAtStartScenario``) and
/// between two content pages (``ContentFailureScenario``). This one also says when the backend cannot
/// fail at all, for the three.
struct StoreFailureDuringSyncScenario {
    /// Contacts synced before the store fails.
    static let contacts = 6

    let checker: ConformanceChecker

    func run() async throws {
        // The identifiers of T1's first scenario: it adds no suffix (the other two do).
        guard let failing = try checker.startTransientFailureScenario(identifiers: "", contacts: Self.contacts) else {
            checker.recordBlocked(
                [.t1], step: "before the check",
                because:
                    "this backend cannot make its store fail for a moment (it does not conform to TransientFailureInjecting, an exec adapter's hello does not list the \"break-store\" capability, or a CardDAV server is read without the kit's proxy, which cannot stand in front of an https: server; app-database, seed-json, carddav: over http and the vdir adapters can)",
                transcript: [])
            return
        }
        guard try await checker.completeContent(rules: [.t1]) != nil else { return }
        let before = try checker.subject.systemContacts()
        let pending = checker.makeContact()
        try checker.backend.add(pending)
        let description = try failing.beginTransientFailure()
        let outcome: (SyncReport, [String])
        do {
            outcome = try await checker.systemSync(maxSteps: .max)
        } catch {
            try failing.endTransientFailure()
            throw error
        }
        try failing.endTransientFailure()
        let kept = Set(try checker.subject.systemContacts().map(\.identifier))
        let lost = before.map(\.identifier).filter { !kept.contains($0) }
        if !lost.isEmpty {
            let answer = outcome.0.error.map { " The sync ended with: \($0.message)." } ?? ""
            checker.record(
                .t1,
                Finding(
                    explanation:
                        "while the store could not be read (\(description)), the system lost \(lost.count) of the \(before.count) contacts it had: \(ConformanceChecker.list(lost, checker.contactShapes)).\(answer) An expiry error (pageExpired, changeAnchorExpired) makes the system discard every contact of the domain (R27, R38); answer a read that fails for a moment with another error, which the system retries from its last committed page or anchor (R28, R39)",
                    step: "sync while the store failed", transcript: outcome.1))
            return
        }
        try await checker.systemConverges(
            rule: .t1, step: "signal after the store could be read again, with \(pending.identifier) pending")
    }
}
