import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("App Group file safety: modes and symbolic links")
struct FileSafetyTests {
    @Test("Files are created 0600 and directories 0700, including missing parents")
    func modes() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: AppGroup(path: group.path + "/nested/group"))
            try database.add(StoreFixtures.contact("a"))
            try database.store.compact()
            try database.add(StoreFixtures.contact("b"))

            for directory in [group.path + "/nested", group.path + "/nested/group", database.store.directory] {
                #expect(StoreFixtures.mode(directory) == 0o700, "\(directory)")
            }
            for file in [
                database.store.snapshotPath, database.store.journalPath, database.store.lockPath,
                database.store.previousJournalPath,
            ] {
                #expect(StoreFixtures.mode(file) == 0o600, "\(file)")
                #expect(StoreFixtures.info(file).map { $0.st_uid } == geteuid())
            }
            // No temp files are left behind by the atomic replacements.
            let names = try FileManager.default.contentsOfDirectory(atPath: database.store.directory).sorted()
            // The journal the compaction folded is kept, for anchors behind it (issue 44, item 3).
            #expect(names == ["journal.jsonl", "journal.previous.jsonl", "lock", "snapshot.jsonl"])
        }
    }

    @Test("A file with a loose mode is tightened to 0600 when opened")
    func looseModeTightened() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            #expect(chmod(database.store.journalPath, 0o644) == 0)
            try database.add(StoreFixtures.contact("b"))
            #expect(StoreFixtures.mode(database.store.journalPath) == 0o600)
        }
    }

    @Test("A symbolic link in place of journal.jsonl is refused, and its target is untouched")
    func symlinkedJournal() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            let journal = database.store.journalPath
            let elsewhere = group.path + "/elsewhere.jsonl"
            try FileManager.default.moveItem(atPath: journal, toPath: elsewhere)
            #expect(symlink(elsewhere, journal) == 0)
            let target = try StoreFixtures.bytes(elsewhere)

            #expect(throws: StoreError.unsafePath(path: journal, reason: "is a symbolic link")) {
                _ = try database.store.load()
            }
            #expect(throws: StoreError.unsafePath(path: journal, reason: "is a symbolic link")) {
                try database.add(StoreFixtures.contact("b"))
            }
            #expect(throws: StoreError.unsafePath(path: journal, reason: "is a symbolic link")) {
                _ = try database.get("a")
            }
            #expect(try StoreFixtures.bytes(elsewhere) == target)
            #expect(StoreFixtures.info(journal).map { $0.st_mode & S_IFMT } == S_IFLNK)
        }
    }

    @Test("A symbolic link in place of snapshot.jsonl is refused")
    func symlinkedSnapshot() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            let snapshot = database.store.snapshotPath
            let elsewhere = group.path + "/elsewhere-snapshot.jsonl"
            try FileManager.default.moveItem(atPath: snapshot, toPath: elsewhere)
            #expect(symlink(elsewhere, snapshot) == 0)
            #expect(throws: StoreError.unsafePath(path: snapshot, reason: "is a symbolic link")) {
                _ = try database.all()
            }
            #expect(throws: StoreError.unsafePath(path: snapshot, reason: "is a symbolic link")) {
                try database.add(StoreFixtures.contact("b"))
            }
        }
    }

    @Test("A symbolic link in place of the contacts directory is refused")
    func symlinkedDirectory() throws {
        try withTemporaryAppGroup { group throws in
            let elsewhere = group.path + "/real-contacts"
            #expect(mkdir(elsewhere, 0o700) == 0)
            #expect(symlink(elsewhere, group.appGroup.contactsDirectory) == 0)
            let database = AppDatabase(appGroup: group.appGroup)
            #expect(throws: StoreError.self) { try database.add(StoreFixtures.contact("a")) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        }
    }
}
