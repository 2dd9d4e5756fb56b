import AppGroupStore
import Foundation
import Glibc

/// A process that holds a lock file exclusively and is stopped (SIGSTOP), as a writer or a compaction
/// stopped mid-way holds it: for the tests of waiting writers and of readers that never wait.
///
/// One Python process opens, locks and holds the file, so `/proc/locks` names it (a lock taken by
/// flock(1) for another process names flock's pid, gone by then), and killing it leaves nothing
/// behind (flock's `-o COMMAND` form leaves its `sleep` running for ten minutes after flock is
/// killed, with whatever descriptors it inherited, and a parallel test reading a pipe waited for it).
package enum StoppedLockHolder {
    /// The start of the holder's command line, as a lock's holder description shows it.
    package static let commandPrefix = "python3 -c import fcntl"

    /// Starts a holder of `lockPath`, waits until it holds the lock, and stops it; `kill()` ends it.
    package static func hold(_ lockPath: String) throws -> SpawnedProcess {
        let holder = try SpawnedProcess([
            "/usr/bin/env", "python3", "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(600)",
            lockPath,
        ])
        let probe = try FileLock(path: lockPath)
        let deadline = Date().addingTimeInterval(20)
        while try probe.tryLock(.shared) {
            probe.unlock()
            guard Date() < deadline else {
                holder.kill()
                throw HolderDidNotLock(path: lockPath)
            }
            usleep(10_000)
        }
        guard kill(holder.pid, SIGSTOP) == 0 else {
            holder.kill()
            throw HolderDidNotLock(path: lockPath)
        }
        return holder
    }

    /// The holder never took the lock within 20 s, or could not be stopped.
    package struct HolderDidNotLock: Error, CustomStringConvertible {
        package var path: String
        package var description: String { "the lock holder never held \(path)" }
    }
}
