import Synchronization

/// Whether the task running a command has made a change durable: the store's commit points say so.
///
/// A command that committed must exit 0 even when its result cannot be printed (standard output on a
/// full disk): its caller would otherwise retry a change that is already made (issue 42, item 1; a
/// retried `add` adds a second contact). Whether a command committed is a fact of the store, not of
/// each command, so the journal's durable appends and the snapshot's replacements record it here, and
/// the command runner (`HostTool.main`) reads it when an output write fails.
///
/// It is a task-local, not process-wide state, because the tests run commands in process side by side.
package final class CommitWitness: Sendable {
    private let committed = Atomic<Bool>(false)

    /// The witness of the command running on this task (nil outside a command: libraries, providers).
    @TaskLocal package static var current: CommitWitness?

    package init() {}

    /// True once anything was made durable while this witness was current.
    package var hasCommitted: Bool { committed.load(ordering: .acquiring) }

    /// Called at each durable commit point.
    package static func noteCommit() {
        current?.committed.store(true, ordering: .releasing)
    }
}
