import ContactProviderSystem
import Foundation
import Glibc

/// Waiting for a process that is not necessarily this process's child (a provider started by
/// `contacts-host`, say) to be gone.
///
/// Swift cannot call `pidfd_open` (a variadic syscall) and `waitpid` only works for children, so this
/// checks `/proc` briefly; it is for waiting on a process already told to stop, never for synchronising.
package enum ProcessExit {
    /// Whether `pid` is gone: no such process, or a zombie only waiting to be reaped, every thread
    /// of it included.
    ///
    /// The threads matter: a multi-threaded process killed with SIGKILL can show its main thread as a
    /// zombie while its other threads are still exiting, and its descriptors (a FIFO's read end, a
    /// `flock`) close only when the last thread lets go of them. Judged by the main thread alone, a
    /// provider was "gone" while its request FIFO still had a reader, and the next `signal` rang a
    /// dying process ("the provider exited before answering", CrashProviderTests).
    package static func isGone(_ pid: pid_t) -> Bool {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
            return true
        }
        return threads.allSatisfy { thread in
            guard let state = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/stat", encoding: .utf8)
            else { return true }
            // The state follows the command name, which is in parentheses and may hold ") ".
            guard let close = state.range(of: ") ", options: .backwards) else { return false }
            return state[close.upperBound...].hasPrefix("Z") || state[close.upperBound...].hasPrefix("X")
        }
    }

    /// Waits up to `seconds` for `pid` to be gone; returns whether it is.
    @discardableResult
    package static func waitUntilGone(_ pid: pid_t, seconds: Double = 10) -> Bool {
        Poll.until(seconds: seconds, every: 0.002) { isGone(pid) }
    }
}
