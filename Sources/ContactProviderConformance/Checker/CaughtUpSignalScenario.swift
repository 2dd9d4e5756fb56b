import AppGroupStore
import ContactProviderSystem
import Foundation

/// D10 and W1 on their own.
///
/// Both are checked wherever the kit syncs: D10 by every ``ConformanceChecker/syncUntilCaughtUp(attempts:)``
/// (a signal right after a sync that caught up must bring nothing), W1 by every
/// ``ConformanceChecker/systemSync(maxSteps:expectedCalls:)`` (the system's warnings, reported at the
/// end of the run). This scenario makes them hold when they are the only rules selected, so
/// `--rules D10` or `--rules W1`, as a failure's reproduce line prints it, checks them too: a content
/// sync, a restart of the extension, a few edits, and syncs until the system has caught up, then one
/// more signal.
struct CaughtUpSignalScenario {
    /// Contacts of the scenario.
    static let contacts = 10

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.d10)
        try checker.freshData(count: Self.contacts)
        try await checker.syncUntilCaughtUp()
        try await checker.subject.restart()
        try checker.mutate(updates: 3, deletes: 2, adds: 2)
        try await checker.syncUntilCaughtUp()
    }
}
