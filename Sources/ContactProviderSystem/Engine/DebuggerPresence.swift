import Foundation
import Glibc

/// Whether a debugger is attached to a process, as the kernel reports it (`TracerPid` in
/// `/proc/PID/status`).
///
/// Xcode turns the system's watchdogs off while its debugger is attached to an extension, so a
/// developer can stop at a breakpoint as long as they like. The simulated system does the same, and
/// only then: time spent stopped by a debugger is not counted against the framework's limits (R41
/// page and batch, R11 invalidate), nor against a waiting host's `--timeout`. A process stopped by
/// a plain `SIGSTOP` (`kill -STOP`, Ctrl-Z on a foreground provider) has no tracer and is treated as
/// a device treats a hung extension: its limits keep running. A developer who suspends it by hand
/// without a debugger gets the same failure a slow provider gets, which keeps "slow" and "debugged"
/// distinguishable (issue 24).
package enum DebuggerPresence {
    /// Whether process `pid` (this process when nil) has a tracer. False when it cannot be read.
    package static func isTraced(pid: pid_t? = nil) -> Bool {
        (tracerPID(of: pid) ?? 0) != 0
    }

    /// The tracer's pid (0 for none), or nil when the status cannot be read (the process is gone).
    package static func tracerPID(of pid: pid_t? = nil) -> pid_t? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // TracerPid is in the first lines; 2 KiB holds them on every kernel seen.
        var buffer = [UInt8](repeating: 0, count: 2048)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parseTracerPID(String(decoding: buffer[0..<count], as: UTF8.self))
    }

    /// `TracerPid` from a `/proc/PID/status` text.
    package static func parseTracerPID(_ status: String) -> pid_t? {
        for line in status.split(separator: "\n") where line.hasPrefix("TracerPid:") {
            return pid_t(line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
