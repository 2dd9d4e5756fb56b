import AppGroupStore
import ContactProviderSystem
import Foundation

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

extension ConformanceChecker {
    /// The start of each of T1's scenarios: the backend that can fail, with `count` fresh contacts whose
    /// identifiers end in `suffix` (none shared with another scenario of T1, which a provider's memory
    /// could tie to them); nil when the backend cannot fail, which ``StoreFailureDuringSyncScenario`` reports.
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
}
