import Foundation
import Glibc

/// A child process leading a session of its own (``ProcessSpawn/newSessionFlag``), as the host
/// launches a provider: `contacts-bench` starts the provider's stand-in in its signal floors so.
///
/// Where a process is placed matters on a busy machine. Linux schedules each session as a group
/// (autogroup), as a desktop's session scopes do: a process that wakes inside the group of the
/// process that is running preempts it at once; one in another group waits for the running group's
/// slice, up to a tick (4 ms here). A stand-in for the provider started in the spinners' session got
/// every processor back at once after a `fdatasync` while the provider waited: the same durable
/// writes took 33–36 ms from it and 48–51 ms from the same process started with `setsid` (25 rings
/// each, two busy processes, 2026-12-07; docs/benchmarks.md, "The CLI floors").
package final class SessionProcess {
    /// The child's process identifier.
    package let pid: pid_t
    private var exitStatus: Int32?

    /// Starts `arguments` (the executable first) with this process's environment, standard input
    /// from /dev/null, output inherited, every signal unblocked and at its default.
    package init(_ arguments: [String]) throws(ProcessSpawn.SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch ProcessSpawn.spawnInNewSession(
            arguments[0], arguments: arguments, environment: ProcessInfo.processInfo.environment,
            fileActions: &actions, defaultSignals: nil)
        {
        case .success(let started): pid = started
        case .failure(let error): throw error
        }
    }

    /// Whether the child has not exited (it is reaped when it has).
    package var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid || (reaped < 0 && errno == ECHILD) { exitStatus = status }
        return exitStatus == nil
    }

    /// Sends `signal` unless the child was already reaped (its pid may belong to another process).
    package func send(_ signal: Int32) {
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Waits for the child to exit and reaps it.
    package func waitUntilExit() {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        exitStatus = status
    }
}
