import Synchronization

/// App Groups chosen for a scope instead of for the whole process.
///
/// `AppGroup.current` (behind the Apple-shaped entry points: `containerURL(forSecurityApplicationGroupIdentifier:)`,
/// `ContactProviderManager()`, `DefaultContactProviderDomain`, and the `appGroup: .current` defaults)
/// resolves, in order: the task's scope (``AppGroup/withCurrent(_:isolation:operation:)``), the in-process
/// provider run under way (see `withInProcessRun`), `use(_:)`, the environment variable, the per-user
/// default. Neither scope changes ``AppGroup/chosen``.
extension AppGroup {
    /// The App Group of the current task and the tasks it creates (child tasks and `Task {}`), if scoped.
    @TaskLocal static var taskScoped: AppGroup?

    /// The group of the in-process provider run under way, if any: one at a time (see `withInProcessRun`).
    private static let inProcessRun = Mutex<AppGroup?>(nil)
    /// Makes in-process runs take turns (FIFO).
    private static let inProcessRunTurns = AsyncExclusion()

    /// The scoped App Group that `current` resolves to before `use(_:)`: the task's, else the in-process run's.
    static var scoped: AppGroup? {
        taskScoped ?? inProcessRun.withLock { $0 }
    }

    /// Runs `operation` with `group` as ``current`` for this task and the tasks it creates, without
    /// changing the process's choice (``chosen``) or any other task's.
    ///
    /// Code that leaves the task tree (a `DispatchQueue` hop, `Task.detached`, a `Thread`) does not
    /// see the scope; see ``withInProcessRun(_:isolation:operation:)`` for in-process provider runs.
    ///
    /// - Parameters:
    ///   - group: the App Group `current` resolves to inside `operation`.
    ///   - isolation: the caller's actor (inferred).
    ///   - operation: the scoped work.
    /// - Returns: what `operation` returns.
    public static func withCurrent<Result>(
        _ group: AppGroup, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskScoped.withValue(group, operation: operation, isolation: isolation)
    }

    /// Runs the synchronous `operation` with `group` as ``current`` for this task (and the tasks it
    /// creates), without changing ``chosen``.
    ///
    /// - Parameters:
    ///   - group: the App Group `current` resolves to inside `operation`.
    ///   - operation: the scoped work.
    /// - Returns: what `operation` returns.
    public static func withCurrent<Result>(_ group: AppGroup, operation: () throws -> Result) rethrows -> Result {
        try $taskScoped.withValue(group, operation: operation)
    }

    /// Runs `operation` as this process's one in-process provider run in `group`: ``current`` is
    /// `group` inside `operation`'s task tree, and also *outside* it while the run lasts, so provider
    /// code that hops to a `DispatchQueue`, a detached task or a `Thread` (losing the task's scope)
    /// still finds the run's App Group, never the user's. ``chosen`` is not changed.
    ///
    /// Runs take turns (callers wait, first come first served): a provider run in process stands for
    /// one extension process, whose App Group is one for the whole process, as on iOS; with two runs
    /// at once, code outside either task tree could not tell whose App Group it should see.
    package static func withInProcessRun<Result>(
        _ group: AppGroup, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        await inProcessRunTurns.acquire()
        defer { inProcessRunTurns.release() }
        inProcessRun.withLock { $0 = group }
        defer { inProcessRun.withLock { $0 = nil } }
        return try await withCurrent(group, isolation: isolation, operation: operation)
    }
}
