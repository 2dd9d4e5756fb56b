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
///
/// A system-call tracer (`strace`, `ltrace`) is a tracer too, but it never holds the process: it is
/// not counted as a debugger, so a provider run under strace (the crash tests do) keeps every limit.
package enum DebuggerPresence {
    /// The variable `contacts-host signal --wait-for-debugger` launches a provider with: it then waits
    /// for a debugger before it serves, so that breakpoints are set before the first call, like
    /// Xcode's "Wait for the executable to be launched".
    package static let waitVariable = "CONTACT_PROVIDER_WAIT_FOR_DEBUGGER"

    /// Tracers that only record system calls: never a debugger stop.
    package static let recordingTracers: Set<String> = ["strace", "ltrace"]

    /// Whether a debugger is attached to process `pid` (this process when nil): it has a tracer and
    /// the tracer is not a system-call recorder. False when it cannot be read.
    package static func isTraced(pid: pid_t? = nil) -> Bool {
        guard let tracer = tracerPID(of: pid), tracer != 0 else { return false }
        let name = (try? String(contentsOfFile: "/proc/\(tracer)/comm", encoding: .utf8)) ?? ""
        return !recordingTracers.contains(name.trimmingCharacters(in: .whitespacesAndNewlines))
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
