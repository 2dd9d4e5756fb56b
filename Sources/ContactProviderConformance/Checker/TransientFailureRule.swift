import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// T1: the store fails for the length of one sync (issue 30, item 10). A provider that answers
    /// the failure with `pageExpired` or `changeAnchorExpired` makes the system discard every
    /// contact of the domain (R27, R38); a resumable error keeps them, and the system asks again
    /// (R28, R39). After the failure the system must still hold what it had, and the next signal
    /// must deliver what was pending. ``ContentFailureScenario`` breaks the store between two content pages,
    /// ``TornStoreAtStartScenario`` when the provider starts.
    /// The start of T1's other scenarios: the backend that can fail, with `count` fresh contacts whose
    /// identifiers end in `suffix` (none shared with another scenario of T1, which a provider's memory
    /// could tie to them); nil when the backend cannot fail, which ``transientFailureRule()`` reports.
    func startTransientFailureScenario(identifiers suffix: String, contacts count: Int) throws
        -> (any TransientFailureInjecting)?
    {
        guard let failing = backend as? any TransientFailureInjecting, failing.canInjectTransientFailure else {
            return nil
        }
        checking(.t1)
        scenarioData.identifierPrefix += suffix
        try freshData(count: count)
        return failing
    }

    func transientFailureRule() async throws {
        guard let failing = backend as? any TransientFailureInjecting, failing.canInjectTransientFailure else {
            recordBlocked(
                [.t1], step: "before the check",
                because:
                    "this backend cannot make its store fail for a moment (it does not conform to TransientFailureInjecting, an exec adapter's hello does not list the \"break-store\" capability, or a CardDAV server is read without the kit's proxy, which cannot stand in front of an https: server; app-database, seed-json, carddav: over http and the vdir adapters can)",
                transcript: [])
            return
        }
        checking(.t1)
        try freshData(count: 6)
        guard try await completeContent(rules: [.t1]) != nil else { return }
        let before = try subject.systemContacts()
        let pending = makeContact()
        try backend.add(pending)
        let description = try failing.beginTransientFailure()
        let outcome: (SyncReport, [String])
        do {
            outcome = try await systemSync(maxSteps: .max)
        } catch {
            try failing.endTransientFailure()
            throw error
        }
        try failing.endTransientFailure()
        let kept = Set(try subject.systemContacts().map(\.identifier))
        let lost = before.map(\.identifier).filter { !kept.contains($0) }
        if !lost.isEmpty {
            let answer = outcome.0.error.map { " The sync ended with: \($0.message)." } ?? ""
            record(
                .t1,
                Finding(
                    explanation:
                        "while the store could not be read (\(description)), the system lost \(lost.count) of the \(before.count) contacts it had: \(Self.list(lost, contactShapes)).\(answer) An expiry error (pageExpired, changeAnchorExpired) makes the system discard every contact of the domain (R27, R38); answer a read that fails for a moment with another error, which the system retries from its last committed page or anchor (R28, R39)",
                    step: "sync while the store failed", transcript: outcome.1))
            return
        }
        try await systemConverges(
            rule: .t1, step: "signal after the store could be read again, with \(pending.identifier) pending")
    }
}

/// A backend that can make its store fail for a moment, as a store does while the app rewrites a
/// file in place, holds a lock or meets a disk error (rule T1).
///
/// Between ``beginTransientFailure()`` and ``endTransientFailure()`` every read of the store by
/// the provider fails; afterwards the store holds exactly what it held before.
public protocol TransientFailureInjecting: ConformanceBackend {
    /// Makes the store unreadable; returns what was done, in words (for the report).
    func beginTransientFailure() throws -> String
    /// Makes the store readable again, with the data it had.
    func endTransientFailure() throws
    /// Whether this backend can do it (an exec adapter says so in its `hello` reply).
    var canInjectTransientFailure: Bool { get }
}

extension TransientFailureInjecting {
    /// A conforming store can.
    public var canInjectTransientFailure: Bool { true }
}
