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
}
