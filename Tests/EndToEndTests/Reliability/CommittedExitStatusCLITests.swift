import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 4: a command whose change is committed exits 0, even when what follows the commit
/// (compaction, the system side of `reset`/`disable`) fails; the later failure is a warning on stderr.
/// A script that retried a "failed" `add` would otherwise duplicate the contact.
@Suite("Reliability: a committed command exits 0")
struct CommittedExitStatusCLITests {
    /// A database whose journal is past the compaction threshold (written without compacting), on a
    /// small tmpfs filled up so that one more journal line fits but a new snapshot does not.
    private static func fillWithPendingCompaction(_ group: TemporaryAppGroup, on disk: ScratchFileSystem) throws {
        let note = String(repeating: "n", count: 200)
        let records = (0..<1500).map { index -> ContactRecord in
            var record = ContactRecord(identifier: "seed-\(index)")
            record.givenName = "Seed \(index)"
            record.note = note
            return record
        }
        try AppDatabase(appGroup: group.appGroup).upsert(records)
        let store = AppDatabase(appGroup: group.appGroup).store
        #expect((CLIHarnessSize.of(store.journalPath) ?? 0) > 256 * 1024)
        try disk.fill(leaving: 16 * 1024)
    }

    private static func expectCommittedWithWarning(
        _ result: ProcessResult, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.exitCode == 0, "\(result)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect(lines.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("warning: ") == true, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result)", sourceLocation: sourceLocation)
    }

    @Test("add, update, delete and import on a full disk: committed, exit 0, compaction failure is a warning")
    func compactionFailureAfterCommit() throws {
        try withTemporaryAppGroup(onScratchFileSystemOf: 2 << 20) { group, disk in
            try Self.fillWithPendingCompaction(group, on: disk)
            let added = try HostRunner.process.run(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            Self.expectCommittedWithWarning(added, mentioning: "No space left on device")
            #expect(added.output == "ada")

            let updated = try HostRunner.process.run(["update", "ada", "--family-name", "Lovelace"], in: group)
            Self.expectCommittedWithWarning(updated, mentioning: "No space left on device")
            #expect(updated.output == "ada")

            let deleted = try HostRunner.process.run(["delete", "seed-1"], in: group)
            Self.expectCommittedWithWarning(deleted, mentioning: "No space left on device")

            let importFile = NSTemporaryDirectory() + "/cps-import-\(UUID().uuidString).json"
            defer { unlink(importFile) }
            try Data(#"[{"identifier":"grace","givenName":"Grace"}]"#.utf8).write(to: URL(fileURLWithPath: importFile))
            let imported = try HostRunner.process.run(["import", importFile], in: group)
            Self.expectCommittedWithWarning(imported, mentioning: "No space left on device")
            #expect(imported.output == "imported 1 contact (1 added, 0 updated, 0 skipped)")

            // Every acknowledged change is there; retrying the add is refused as a duplicate, not a second contact.
            let database = AppDatabase(appGroup: group.appGroup)
            #expect(try database.get("ada")?.familyName == "Lovelace")
            #expect(try database.get("seed-1") == nil)
            #expect(try database.get("grace")?.givenName == "Grace")
            #expect(try database.all().count == 1500 + 1 - 1 + 1)
            let retried = try HostRunner.process.run(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            #expect(retried.exitCode == 1)

            // With space again, the next write compacts.
            disk.unfill()
            try HostRunner.process.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
            #expect((CLIHarnessSize.of(database.store.journalPath) ?? .max) < 4096)
        }
    }

    @Test("reset and disable: the committed part stands (exit 0), the failed system side is a warning")
    func systemSideFailureAfterCommit() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try HostRunner.process.succeed(["enable"], in: group)
            // The system store's directory is a regular file: emptying it must fail, after the commit.
            let store = group.path + "/domains/defaultDomain/store"
            try? FileManager.default.removeItem(atPath: store)
            #expect(FileManager.default.createFile(atPath: store, contents: Data("x".utf8)))

            let reset = try HostRunner.process.run(["reset"], in: group)
            Self.expectCommittedWithWarning(reset, mentioning: "is not a directory")
            #expect(try AppDatabase(appGroup: group.appGroup).all().isEmpty)

            let disabled = try HostRunner.process.run(["disable"], in: group)
            Self.expectCommittedWithWarning(disabled, mentioning: "is not a directory")
            let status = try HostRunner.process.run(["signal"], in: group)
            #expect(status.exitCode == 1)
            #expect(status.stderr.contains("disabled"), "\(status)")
        }
    }
}

/// File sizes for the checks above.
enum CLIHarnessSize {
    static func of(_ path: String) -> Int? {
        CLIHarness.info(path).map { Int($0.st_size) }
    }
}
