import Dispatch
import Foundation
import Glibc

/// An `fdatasync` of the journal running on another thread, so a writer can prepare its next entry
/// while the disk makes the last one durable.
///
/// The sync engine's group commit (``JournalGroupCommit``) starts one for the pages and batches it
/// wrote: the provider enumerates the next page while the disk works, instead of the two taking turns.
/// The entries themselves are written (every reader sees them, and they survive the process being
/// killed) before the ``JournaledStore`` call that starts this one returns.
package final class PendingSync: @unchecked Sendable {
    /// The `fdatasync` to run (tests pass one that fails or blocks).
    package typealias SyncFunction = @Sendable (_ fd: Int32) -> Int32

    private let done = DispatchSemaphore(value: 0)
    // Written by the syncing thread before `done` is signalled, read only after waiting for it.
    private var failure: StoreError?
    private var finished = false

    /// Starts `sync` on a duplicate of `fd` (the caller may close its own at once).
    init(fd: Int32, path: String, sync: @escaping SyncFunction) throws {
        if Durability.isEphemeral(path) {  // nothing to wait for (the kit's temporary App Group)
            finished = true
            return
        }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw StoreError.io(path: path, operation: "dup", errno: errno) }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            if sync(copy) != 0 {
                failure = .io(path: path, operation: "fdatasync", errno: errno)
            }
            close(copy)
            done.signal()
        }
    }

    /// Returns once the entry is on stable storage; throws the `fdatasync` error (naming the
    /// journal) when it could not be made durable. Later calls return the same answer at once.
    package func wait() throws {
        if !finished {
            done.wait()
            finished = true
        }
        if let failure { throw failure }
    }

    /// Whether the `fdatasync` has returned (``wait()`` then answers at once); never blocks.
    package var hasFinished: Bool {
        if !finished, done.wait(timeout: .now()) == .success { finished = true }
        return finished
    }

    /// The default: `fdatasync(2)`.
    package static let fdatasync: SyncFunction = { fd in Glibc.fdatasync(fd) }
}
