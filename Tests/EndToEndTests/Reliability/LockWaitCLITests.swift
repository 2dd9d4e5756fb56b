import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 7: a process stopped while it holds the database lock no longer hangs every
/// writer forever: the wait is bounded (`CONTACT_PROVIDER_LOCK_TIMEOUT`), the waiter says who holds
/// the lock after a second, and then fails with `lockTimeout` naming the holder.
@Suite("Reliability: bounded lock waits")
struct LockWaitCLITests {
    @Test("add waits a bounded time for a lock held by a stopped process, names it, and fails")
    func stoppedHolder() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            let lockPath = group.path + "/contacts/lock"
            let before = CLIHarness.databaseFiles(group)

            // util-linux flock(1) takes the lock and runs `sleep`; -o: only flock itself holds it. Spawned
            // and reaped by hand: Foundation's Process does not cope with a child that is stopped.
            let holder = try SpawnedProcess(["/usr/bin/flock", "-o", "-x", lockPath, "/usr/bin/sleep", "600"])
            defer { holder.kill() }
            let holderPID = holder.pid
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
            let lines = result.stderrLines
            #expect(lines.count == 2, "\(result)")
            let holderText = "pid \(holderPID) (flock -o -x \(lockPath) /usr/bin/sleep 600, stopped)"
            #expect(
                lines.first?.hasPrefix("note: waiting for the lock on \(lockPath), held by \(holderText)") == true,
                "\(result)")
            #expect(
                lines.last?.hasPrefix(
                    "error: \(lockPath): timed out after 2 s waiting for the lock, held by \(holderText)") == true,
                "\(result)")
            #expect(result.stderr.contains(FileLock.timeoutVariable))
            #expect(CLIHarness.databaseFiles(group) == before)

            // Resumed and gone, the lock is free again and the same command works.
            holder.kill()
            try CLIHarness.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
        }
    }
}
