import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

@Suite("JournalTail: the last complete line, however long, read from the end")
struct JournalTailTests {
    /// Lines longer than the first 64 kB chunk (a page of a thousand contacts is about 430 kB).
    static let lengths = [10, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300_000, 1_500_000]

    @Test("The last line, whole, for every length and with or without a torn tail", arguments: lengths)
    func lastLine(length: Int) throws {
        try withTemporaryAppGroup { group in
            let header = "HEADER\n"
            let before = String(repeating: "a", count: 5000) + "\n"
            let last = String(repeating: "b", count: length)
            for torn in ["", "{\"seq\":9,\"up"] {
                let path = group.path + "/tail-\(length)-\(torn.count)"
                try Data((header + before + last + "\n" + torn).utf8).write(to: URL(fileURLWithPath: path))
                let found = try read(path, from: header.utf8.count)
                #expect(found?.start == header.utf8.count + before.utf8.count, "length \(length), torn \(torn.count)")
                #expect(found?.bytes == Data(last.utf8), "length \(length), torn \(torn.count)")
            }
            // The only line, starting right at `from`.
            let only = group.path + "/only-\(length)"
            try Data((header + last + "\n").utf8).write(to: URL(fileURLWithPath: only))
            let found = try read(only, from: header.utf8.count)
            #expect(found?.start == header.utf8.count)
            #expect(found?.bytes.count == length)
            // No complete line after `from`.
            let none = group.path + "/none-\(length)"
            try Data((header + last).utf8).write(to: URL(fileURLWithPath: none))
            #expect(try read(none, from: header.utf8.count) == nil)
        }
    }

    @Test("A writer opened after an entry longer than 64 kB appends after it and loses nothing")
    func writerAfterLongEntry() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<NoMetadata>(directory: group.path + "/store")
            try store.append(upsert: [ContactRecord(identifier: "first")])
            let page = (0..<1000).map { index in
                var record = ContactRecord(identifier: "page-\(index)")
                record.givenName = String(repeating: "n", count: 100)
                return record
            }
            try store.append(upsert: page)
            #expect(try StoreFixtures.bytes(store.journalPath).count > 100_000)
            // A writer without the caller's state reads the journal's last line to find its end.
            try store.append(upsert: [ContactRecord(identifier: "after")])
            let loaded = try store.load()
            #expect(loaded.count == 1002)
            #expect(loaded.headSeq == 3)
            #expect(try store.summary().count == 1002)
        }
    }

    private func read(_ path: String, from start: Int) throws -> (start: Int, bytes: Data)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        var window = FileWindow(fd: fd, path: path, size: Int(info.st_size))
        return try JournalTail.lastCompleteLine(&window, from: start, to: Int(info.st_size))
    }
}
