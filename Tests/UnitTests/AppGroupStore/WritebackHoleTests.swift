import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31, item 4: writeback holes. After a power cut, part of an append that was never made
/// durable can read as zeros (whole blocks, or up to the end of the file) while the lines around it
/// are whole. That append and everything after it was never acknowledged: the store opens with the
/// prefix before it, a repair keeps exactly that prefix, and the next writer cuts the rest off.
@Suite("Store: a writeback hole in the journal's unacknowledged tail reads as a torn append")
struct WritebackHoleTests {
    /// An app database whose journal holds `count` one-contact entries (as an import writes them).
    private func importedStore(_ group: TemporaryAppGroup, count: Int) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        let records = (0..<count).map {
            StoreFixtures.contact(String(format: "c%03d", $0), given: String(repeating: "g", count: 120))
        }
        try database.upsert(records)
        return database
    }

    /// The journal's line start offsets (line 0 is the header).
    private func lineStarts(_ data: Data) -> [Int] {
        [0] + data.indices.filter { data[$0] == 0x0A }.dropLast().map { $0 + 1 }
    }

    /// Zeroes `range` of the file at `path` in place (size unchanged).
    private func zero(_ range: Range<Int>, of path: String) throws {
        var data = try StoreFixtures.bytes(path)
        data.replaceSubrange(range, with: [UInt8](repeating: 0, count: range.count))
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test("a zeroed block in the middle of the last batch: the contacts before its line stay, the rest is cut off")
    func holeInTheMiddle() throws {
        try withTemporaryAppGroup { group in
            let database = try importedStore(group, count: 100)
            let journal = database.store.journalPath
            let before = try StoreFixtures.bytes(journal)
            #expect(before.count > 3 * 4096)
            // The second 4 KiB block: written back after the blocks around it, as a power cut can leave it.
            try zero(4096..<8192, of: journal)
            let starts = lineStarts(before)
            let holedLine = starts.lastIndex { $0 <= 4096 }!
            let kept = (0..<(holedLine - 1)).map { String(format: "c%03d", $0) }

            let loaded = try database.all().map(\.identifier)
            #expect(loaded == kept, "the store holds the prefix before the hole")
            #expect(try database.store.check().isEmpty, "a torn append is a crash leftover, not damage")
            #expect(try database.store.salvage().contacts.map(\.identifier) == kept)
            // The next writer cuts the torn append off and appends after the prefix.
            try database.add(StoreFixtures.contact("after"))
            #expect(try database.all().map(\.identifier) == kept + ["after"])
            #expect(try StoreFixtures.bytes(journal).contains(0) == false, "the hole is gone")
            // And a new process reading the file agrees (no cached state).
            #expect(try AppDatabase(appGroup: group.appGroup).all().map(\.identifier) == kept + ["after"])
        }
    }

    @Test("zeros up to the end of the file (the size was written back, the data was not) read as a torn tail")
    func zerosToTheEnd() throws {
        try withTemporaryAppGroup { group in
            let database = try importedStore(group, count: 10)
            let journal = database.store.journalPath
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0, count: 700))
            try handle.close()
            #expect(try database.all().count == 10)
            #expect(try database.store.check().isEmpty)
            try database.add(StoreFixtures.contact("after"))
            #expect(try AppDatabase(appGroup: group.appGroup).all().count == 11)
        }
    }

    @Test(
        "a single zero byte inside a committed line is damage: refused with path:line, and the repair keeps the lines after it"
    )
    func flippedZeroIsDamage() throws {
        try withTemporaryAppGroup { group in
            let database = try importedStore(group, count: 20)
            let journal = database.store.journalPath
            let starts = lineStarts(try StoreFixtures.bytes(journal))
            // One byte in the sixth entry (line 7): no block's end, not the file's end.
            try zero((starts[6] + 20)..<(starts[6] + 21), of: journal)
            #expect(throws: StoreError.self) { try AppDatabase(appGroup: group.appGroup).all() }
            let problems = try database.store.check()
            #expect(problems.contains { $0.path == journal && $0.line == 7 }, "\(problems)")
            let salvaged = try database.store.salvage().contacts.map(\.identifier)
            #expect(salvaged.count == 19, "every other line is kept: \(salvaged)")
        }
    }
}
