import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Issue 27, item 4: a compaction that runs after a large sync gives way to a doorbell instead of
/// making the next signal wait seconds behind it.
@Suite("JournaledStore: a compaction abandoned on request changes nothing")
struct CompactionInterruptTests {
    /// A store whose journal (every contact updated once) is larger than its snapshot: due for compaction,
    /// with more than 1 MiB of snapshot to write, so the writer asks at least once.
    private static let changedNote = String(repeating: "changed ", count: 20)

    private func dueForCompaction(_ group: TemporaryAppGroup) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        let records = (0..<8000).map { index -> ContactRecord in
            var record = StoreFixtures.contact(String(format: "c%05d", index))
            record.note = String(repeating: "n", count: 120)
            return record
        }
        try database.replaceAll(with: records)
        // Longer notes than the snapshot's, so the journal outgrows it.
        _ = try database.upsert(
            records.map {
                var changed = $0
                changed.note = Self.changedNote
                return changed
            })
        return database
    }

    @Test(
        "asked to stop, it leaves the snapshot, the journal and the directory exactly as they were; asked never, it compacts"
    )
    func abandonedThenCompleted() throws {
        try withTemporaryAppGroup { group in
            let database = try dueForCompaction(group)
            let store = database.store
            let directory = (store.snapshotPath as NSString).deletingLastPathComponent
            let snapshot = try StoreFixtures.bytes(store.snapshotPath)
            let journal = try StoreFixtures.bytes(store.journalPath)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()

            var asked = 0
            let compacted = try store.compactIfNeeded(shouldStop: {
                asked += 1
                return true
            })
            #expect(!compacted)
            #expect(asked >= 1, "the compaction never asked whether to stop")
            #expect(try StoreFixtures.bytes(store.snapshotPath) == snapshot)
            #expect(try StoreFixtures.bytes(store.journalPath) == journal)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == names, "a temp file was left"
            )
            #expect(try database.get("c00042")?.note == Self.changedNote)

            #expect(try store.compactIfNeeded(shouldStop: { false }))
            #expect(try StoreFixtures.bytes(store.journalPath).count < journal.count / 100)
            #expect(try database.all().count == 8000)
            #expect(try database.get("c07999")?.note == Self.changedNote)
        }
    }

    /// A doorbell is noticed within a few milliseconds even in a debug build: the asks come every
    /// ``JournaledStore/stopCheckLines`` snapshot lines and ``JournaledStore/stopCheckBytes`` of
    /// journal and of new snapshot (at 8,192 lines and a MiB, a signal waited about 20 ms in a debug
    /// build behind a compaction it then abandoned; `contacts-bench --goals`).
    @Test("a whole compaction asks whether to stop at least every 1,024 lines and 128 KiB it reads or writes")
    func asksOften() throws {
        try withTemporaryAppGroup { group in
            let database = try dueForCompaction(group)
            let store = database.store
            let snapshotBytes = try StoreFixtures.bytes(store.snapshotPath).count
            let journalBytes = try StoreFixtures.bytes(store.journalPath).count
            var asked = 0
            #expect(
                try store.compactIfNeeded(shouldStop: {
                    asked += 1
                    return false
                }))
            let newSnapshotBytes = try StoreFixtures.bytes(store.snapshotPath).count
            let expected =
                8000 / JournaledStore<NoMetadata>.stopCheckLines - 1
                + journalBytes / JournaledStore<NoMetadata>.stopCheckBytes - 1
                + newSnapshotBytes / JournaledStore<NoMetadata>.stopCheckBytes - 1
            #expect(asked >= expected, "asked \(asked) times over \(snapshotBytes) + \(journalBytes) bytes read")
        }
    }
}
