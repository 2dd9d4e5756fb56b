import Foundation
import Glibc

/// A child process started with `posix_spawn` and reaped with `waitpid`, for tests that stop
/// (SIGSTOP) their children: Foundation's `Process` does not cope with a stopped child.
package final class SpawnedProcess: @unchecked Sendable {
    /// The child's pid.
    package let pid: pid_t
    private var status: Int32?

    /// Starts `arguments[0]` with `arguments`; stdin, stdout and stderr are /dev/null unless paths are given.
    package init(
        _ arguments: [String], environment: [String: String]? = nil, stdout: String = "/dev/null",
        stderr: String = "/dev/null"
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // Inherit nothing else: a pipe another test is reading (a parallel ProcessRunner.run) would
        // otherwise stay open in this child, and that reader would wait for it to exit.
        let inherited =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in inherited where fd > 2 && fcntl(fd, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        self.pid = pid
    }

    /// Waits for the child to exit; returns the raw wait status.
    @discardableResult
    package func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        status = raw
        return raw
    }

    /// The exit code, or nil when a signal ended it.
    package var exitCode: Int32? {
        let raw = wait()
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : nil
    }

    /// Kills (SIGKILL, after SIGCONT) and reaps the child if it still runs.
    package func kill() {
        guard status == nil else { return }
        Glibc.kill(pid, SIGCONT)
        Glibc.kill(pid, SIGKILL)
        wait()
    }

    deinit {
        kill()
    }
}
