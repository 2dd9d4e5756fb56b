import AppGroupStore
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10 item 7: a process stopped while it holds the database lock no longer hangs every
/// writer forever: the wait is bounded (`CONTACT_PROVIDER_LOCK_TIMEOUT`), the waiter says who holds
/// the lock after a second, and then fails with `lockTimeout` naming the holder.
@Suite("Reliability: bounded lock waits")
struct LockWaitCLITests {
    @Test("add waits a bounded time for a lock held by a stopped process, names it, and fails")
    func stoppedHolder() throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        try CLIHarness.succeed(["add", "--given-name", "Ada", "--id", "ada"], in: group)
        let lockPath = group.path + "/contacts/lock"
        let before = CLIHarness.databaseFiles(group)

        // util-linux flock(1) takes the lock and runs `sleep`; -o: only flock itself holds it. Spawned
        // and reaped by hand: Foundation's Process does not cope with a child that is stopped.
        let holderPID = try Self.spawn(["/usr/bin/flock", "-o", "-x", lockPath, "/usr/bin/sleep", "600"])
        defer {
            kill(holderPID, SIGKILL)
            var status: Int32 = 0
            while waitpid(holderPID, &status, 0) < 0, errno == EINTR {}
        }
        let probe = try FileLock(path: lockPath)
        let deadline = Date().addingTimeInterval(20)
        while try probe.tryLock(.shared), Date() < deadline {
            probe.unlock()
            usleep(10_000)
        }
        kill(holderPID, SIGSTOP)

        var environment = group.environment
        environment[FileLock.timeoutVariable] = "2"
        let result = try ProcessRunner.run(
            BuiltProducts.path("contacts-host"), ["add", "--given-name", "Bob"], environment: environment)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let lines = CLIHarness.stderrLines(result)
        #expect(lines.count == 2, "\(result)")
        let holderText = "pid \(holderPID) (flock -o -x \(lockPath) /usr/bin/sleep 600, stopped)"
        #expect(lines.first?.hasPrefix("note: waiting for the lock on \(lockPath), held by \(holderText)") == true, "\(result)")
        #expect(lines.last?.hasPrefix("error: \(lockPath): timed out after 2 s waiting for the lock, held by \(holderText)") == true, "\(result)")
        #expect(result.stderr.contains(FileLock.timeoutVariable))
        #expect(CLIHarness.databaseFiles(group) == before)

        // Resumed and gone, the lock is free again and the same command works.
        kill(holderPID, SIGKILL)
        var status: Int32 = 0
        while waitpid(holderPID, &status, 0) < 0, errno == EINTR {}
        try CLIHarness.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
    }

    /// Starts `arguments` with stdin, stdout and stderr on /dev/null; returns its pid.
    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }
}
