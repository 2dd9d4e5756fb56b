import ContactProviderSystem
import Foundation
import Glibc

/// Waiting for a process that is not necessarily this process's child (a provider started by
/// `contacts-host`, say) to be gone.
///
/// Swift cannot call `pidfd_open` (a variadic syscall) and `waitpid` only works for children, so this
/// checks `/proc` briefly; it is for waiting on a process already told to stop, never for synchronising.
package enum ProcessExit {
    /// Whether `pid` is gone: no such process, or a zombie only waiting to be reaped.
    package static func isGone(_ pid: pid_t) -> Bool {
        guard let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return state.contains(") Z ")
    }

    /// Waits up to `seconds` for `pid` to be gone; returns whether it is.
    @discardableResult
    package static func waitUntilGone(_ pid: pid_t, seconds: Double = 10) -> Bool {
        Poll.until(seconds: seconds, every: 0.002) { isGone(pid) }
    }
}
