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
            try HostRunner.process.succeed(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            let lockPath = group.path + "/contacts/lock"
            let before = CLIHarness.databaseFiles(group)

            // A stopped process holds the lock, as a writer stopped mid-way would.
            let holder = try StoppedLockHolder.hold(lockPath)
            defer { holder.kill() }
            let holderPID = holder.pid

            var environment = group.environment
            environment[FileLock.timeoutVariable] = "2"
            let result = try ProcessRunner.run(
                BuiltProducts.path("contacts-host"), ["add", "--given-name", "Bob"], environment: environment)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            let lines = result.stderrLines
            #expect(lines.count == 2, "\(result)")
            let holderText = "pid \(holderPID) (\(StoppedLockHolder.commandPrefix)"
            #expect(
                lines.first?.hasPrefix("note: waiting for the lock on \(lockPath), held by \(holderText)") == true,
                "\(result)")
            #expect(
                lines.last?.hasPrefix(
                    "error: \(lockPath): timed out after 2 s waiting for the lock, held by \(holderText)") == true,
                "\(result)")
            #expect(lines.allSatisfy { $0.contains(", stopped)") }, "\(result)")
            #expect(result.stderr.contains(FileLock.timeoutVariable))
            #expect(CLIHarness.databaseFiles(group) == before)

            // Resumed and gone, the lock is free again and the same command works.
            holder.kill()
            try HostRunner.process.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
        }
    }
}
