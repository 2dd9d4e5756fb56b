import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 9: an App Group on a read-only file system (a read-only mount, a backup) can be
/// read: `list`, `get`, `export`, `status` and `system list` work; writes fail with a clear error.
/// Root ignores file modes, so the test uses a real read-only mount (a tmpfs remounted `ro`).
@Suite("Reliability: a read-only App Group is readable")
struct ReadOnlyAppGroupCLITests {
    @Test("list, get, export, status and system list on a read-only mount; add fails and says why")
    func readOnlyMount() throws {
        try withTemporaryAppGroup(onScratchFileSystemOf: 4 << 20) { group, disk in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--family-name", "Lovelace", "--id", "ada"], in: group)
            try host(["add", "--given-name", "Grace", "--id", "grace"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let commands = [
                ["list"], ["get", "ada"], ["export"], ["status", "--json"], ["system", "list", "--json"],
            ]
            let before = try commands.map { try HostRunner.process.succeed($0, in: group) }
            // A backup may come without the app database's lock file; the system store keeps its own.
            unlink(group.path + "/contacts/lock")
            try disk.makeReadOnly()

            for (command, expected) in zip(commands, before) {
                let result = try HostRunner.process.run(command, in: group)
                #expect(result.exitCode == 0, "\(command): \(result)")
                #expect(result.stderr.isEmpty, "\(command): \(result)")
                #expect(result.output == expected, "\(command)")
            }
            let add = try HostRunner.process.run(["add", "--given-name", "Bob"], in: group)
            CLIHarness.expectFailure(add, mentioning: ["Read-only file system"])
        }
    }
}
