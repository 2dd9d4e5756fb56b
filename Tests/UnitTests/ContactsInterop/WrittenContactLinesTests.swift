import ContactProviderTesting
import Foundation
import Glibc
import TestSupport
import Testing

@testable import AppGroupStore
@testable import ContactsInterop

/// The compaction after an import folds the lines the import noted as it wrote them
/// (`WrittenContactLines`), not reading them again: the snapshot and the name index must be the
/// bytes a compaction that reads every line writes, and a noted line that is no longer the line
/// written must be read (and its damage reported) as any other.
@Suite("Lines an import noted: folded as noted, the same snapshot and index; any other line read")
struct WrittenContactLinesTests {
    /// Import files' contacts: mostly ones the transcoder copies, some it leaves to the decoder (an
    /// escape, a field it does not copy), and a few repeated identifiers (updates). None empty: the
    /// new identifiers such contacts get would order two imports' snapshots differently.
    static func importFile(seed: UInt64, count: Int) -> [Data] {
        var random = SeededRandom(seed: seed)
        let records = (0..<count).map { index in
            var record =
                random.chance(0.85)
                ? ContactTranscoderTests.simpleRecord(&random) : StoreCodecDifferentialTests.record(&random)
            record.identifier = "c-\(random.chance(0.05) ? index / 2 : index)"
            return record
        }
        return records.compactMap { try? JSONEncoder().encode($0) }
    }

    /// Imports `encoded` into `database` (batches of 64, through the transcoder as `import` does),
    /// after two contacts already written.
    static func importContacts(_ encoded: [Data], into database: AppDatabase) throws {
        try database.add(StoreFixtures.contact("c-3", given: "Old"))
        try database.add(StoreFixtures.contact("zz-before", given: "Before"))
        _ = try database.upsert(
            count: encoded.count, batchSize: 64,
            transcode: { index, batch in encoded[index].withUnsafeBytes { batch.transcode($0) } },
            record: { index in
                try encoded[index].withUnsafeBytes { ContactRecordCodec.decodeIfPlain($0) }
                    ?? JSONDecoder().decode(ContactRecord.self, from: encoded[index])
            })
    }

    /// The snapshot's lines and the name index's, without their header lines (generations, sizes).
    static func folded(_ database: AppDatabase) throws -> (snapshot: [String], index: [String]) {
        func body(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
        }
        return (try body(database.store.snapshotPath), try body(database.store.path(of: ContactSearch.nameIndex)))
    }

    @Test("The import's compaction folds its lines as noted into the snapshot and index a full read writes")
    func sameSnapshotAndIndex() throws {
        let encoded = Self.importFile(seed: StoreCodecDifferentialTests.seed &+ 44, count: 600)
        let read = try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup, derivedIndexes: [ContactSearch.nameIndex])
            try Self.importContacts(encoded, into: database)
            let outcome = try #require(try database.store.compact())
            #expect(outcome.linesFoldedAsNoted == 0)
            return try Self.folded(database)
        }
        let noted = try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup, derivedIndexes: [ContactSearch.nameIndex])
            try Self.importContacts(encoded, into: database)
            let outcome = try #require(try database.store.compact(written: database.writtenLines))
            // Every line of the import (copied or encoded from a record), not the two before it.
            #expect(outcome.linesFoldedAsNoted == encoded.count)
            return try Self.folded(database)
        }
        #expect(read.snapshot.count > 500)
        #expect(noted.snapshot == read.snapshot)
        #expect(noted.index == read.index)
    }

    @Test("AppDatabase.compactIfNeeded after an import uses the notes once, and lines written after them are read")
    func laterLinesRead() throws {
        // Enough that the journal outgrows the compaction's minimum (256 KiB).
        let encoded = Self.importFile(seed: StoreCodecDifferentialTests.seed &+ 45, count: 3000)
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup, derivedIndexes: [ContactSearch.nameIndex])
            try Self.importContacts(encoded, into: database)
            #expect(database.writtenLines.isRecording)
            // Another writer's lines after the import's, and a deletion of one it wrote.
            let other = AppDatabase(appGroup: group.appGroup)
            try other.add(StoreFixtures.contact("c-after", given: "After"))
            try other.delete(["c-1"])
            let notes = database.writtenLines
            #expect(try database.compactIfNeeded())
            #expect(!database.writtenLines.isRecording, "the notes are spent")
            let contacts = try database.all()
            #expect(contacts.contains { $0.identifier == "c-after" })
            #expect(!contacts.contains { $0.identifier == "c-1" })
            #expect(contacts.contains { $0.identifier == "zz-before" })
            // The journal is a new one now: the same notes are of no line of it.
            try other.add(StoreFixtures.contact("c-later", given: "Later"))
            let outcome = try #require(try database.store.compact(written: notes))
            #expect(outcome.linesFoldedAsNoted == 0)
            #expect(try database.get("c-later")?.givenName == "Later")
        }
    }

    @Test("A noted line changed since it was written is read again, and its damage reported", arguments: [0, 1])
    func changedLineIsRead(change: Int) throws {
        let encoded = Self.importFile(seed: StoreCodecDifferentialTests.seed &+ 46, count: 200)
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup, derivedIndexes: [ContactSearch.nameIndex])
            try Self.importContacts(encoded, into: database)
            // In place, as a bad disk or another program could: the `[` before a contact (the line is
            // no longer JSON a store writes), or one digit of a seq (it no longer follows the last).
            let path = database.store.journalPath
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let lines = bytes.indices.filter { bytes[$0] == 0x0A }
            let lineStart = lines[lines.count / 2] + 1
            let target: Int
            if change == 0 {
                target = try #require(bytes[lineStart...].firstIndex(of: 0x5B))
                bytes[target] = 0x20
            } else {
                target = lineStart + #"{"seq":"#.utf8.count
                bytes[target] = bytes[target] == 0x39 ? 0x38 : bytes[target] + 1
            }
            let fd = open(path, O_WRONLY)
            #expect(fd >= 0)
            #expect(pwrite(fd, [bytes[target]], 1, off_t(target)) == 1)
            close(fd)
            #expect(throws: StoreError.self) { try database.store.compact(written: database.writtenLines) }
            // What a compaction that reads every line says, too.
            #expect(throws: StoreError.self) { try database.store.compact() }
        }
    }
}
