import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// `ContentPager` (pages read from the files) against `StoreState.page` (pages of the loaded store):
/// the same contacts, positions, holes and `isLast`, on seeded random stores and random paging.
@Suite("Store: content pages read from the files")
struct ContentPagerTests {
    static let seed: UInt64 = 0x17_9A6E

    private func compare(
        _ pager: ContentPager<NoMetadata>, _ store: JournaledStore<NoMetadata>, offset: Int, limit: Int, _ note: String
    )
        throws -> Int
    {
        let state = try store.load()
        let expected = state.page(from: offset, limit: limit)
        let page = try pager.page(from: offset, limit: limit)
        #expect(page.contacts == expected.contacts, "\(note): offset \(offset), limit \(limit)")
        #expect(page.nextOffset == expected.nextOffset, "\(note): offset \(offset), limit \(limit)")
        #expect(page.isLast == expected.isLast, "\(note): offset \(offset), limit \(limit)")
        #expect(page.generation == state.generation && page.headSeq == state.headSeq, "\(note)")
        return page.nextOffset
    }

    @Test("Random stores, random pages: the same pages as the loaded store gives")
    func pagesMatchLoadedState() throws {
        for index in 0..<60 {
            var random = SeededRandom.forCase(index, seed: Self.seed)
            let directory = NSTemporaryDirectory() + "/pager-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = JournaledStore<NoMetadata>(directory: directory, lazySnapshot: true)
            let pager = ContentPager(store: store)
            func record(_ number: Int) -> ContactRecord {
                var record = ContactRecord(identifier: String(format: "c%03d", number))
                record.givenName = "v\(random.below(1000))"
                return record
            }
            if random.chance(0.8) { try store.replaceAll(with: (0..<random.int(0...40)).map { record($0 * 2) }) }
            for step in 0..<random.int(1...12) {
                switch random.below(6) {
                case 0, 1: try store.append(upsert: (0..<random.int(1...3)).map { _ in record(random.below(90)) })
                case 2:
                    try store.append(
                        delete: (0..<random.int(1...4)).map { _ in String(format: "c%03d", random.below(90)) })
                case 3: if random.chance(0.3) { try store.compact() }
                default: break
                }
                // Page through from the start, sometimes jumping, as a provider (or a restarted one) does.
                var offset = random.chance(0.2) ? random.int(-2...60) : 0
                var pages = 0
                while pages < 200 {
                    let limit = random.int(1...9)
                    let next = try compare(pager, store, offset: offset, limit: limit, "case \(index) step \(step)")
                    let last = try pager.page(from: offset, limit: limit).isLast
                    if last || next == offset { break }
                    offset = random.chance(0.1) ? random.int(0...60) : next
                    pages += 1
                }
            }
        }
    }

    @Test("A snapshot file replaced between pages is mapped anew, not read from the mapping of the old one")
    func replacedSnapshotIsMappedAnew() throws {
        let directory = NSTemporaryDirectory() + "/pager-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = JournaledStore<NoMetadata>(directory: directory, lazySnapshot: true)
        try store.replaceAll(
            with: (0..<20).map { number in
                var record = ContactRecord(identifier: String(format: "c%03d", number))
                record.givenName = "Old"
                return record
            })
        let pager = ContentPager(store: store)
        let first = try pager.page(from: 0, limit: 10)
        // The same generation, the same line offsets, other values: only the file's identity tells.
        let text = try String(contentsOfFile: store.snapshotPath, encoding: .utf8)
        let replacement = store.snapshotPath + ".new"
        try text.replacingOccurrences(of: #""Old""#, with: #""New""#)
            .write(toFile: replacement, atomically: false, encoding: .utf8)
        #expect(rename(replacement, store.snapshotPath) == 0)
        let second = try pager.page(from: first.nextOffset, limit: 10)
        #expect(second.contacts.map(\.givenName) == Array(repeating: "New", count: 10))
    }

    @Test("Only a mapped snapshot is reused by identity: one read into memory pins no inode, so it is opened again")
    func onlyAMappingIsReused() throws {
        let directory = NSTemporaryDirectory() + "/pager-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = JournaledStore<NoMetadata>(directory: directory, lazySnapshot: true)
        // A small store is read, a large one mapped (`MappedFile.readLimit`).
        try store.replaceAll(with: (0..<20).map { ContactRecord(identifier: String(format: "c%03d", $0)) })
        let small = try #require(try store.openSnapshot())
        #expect(!small.pinsInode)
        // Still the very file at the path, but its inode number could be another file's by the next
        // look (it is free once the file is replaced): never taken as current.
        #expect(!store.isCurrentSnapshot(small))
        try store.replaceAll(
            with: (0..<3000).map { ContactRecord(identifier: String(format: "c%05d", $0)) })
        let large = try #require(try store.openSnapshot())
        #expect(large.pinsInode && large.size > MappedFile.readLimit)
        #expect(store.isCurrentSnapshot(large))
    }

    @Test("A snapshot whose header undercounts its lines is refused with path:line, not paged short")
    func undercountIsRefused() throws {
        let directory = NSTemporaryDirectory() + "/pager-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = JournaledStore<NoMetadata>(directory: directory)
        try store.replaceAll(with: (0..<3).map { ContactRecord(identifier: "c\($0)") })
        let text = try String(contentsOfFile: store.snapshotPath, encoding: .utf8)
        try text.replacingOccurrences(of: #""count":3"#, with: #""count":2"#)
            .write(toFile: store.snapshotPath, atomically: false, encoding: .utf8)
        let pager = ContentPager(store: store)
        #expect(throws: StoreError.self) { _ = try pager.page(from: 0, limit: 10) }
        #expect(throws: StoreError.self) { _ = try store.load() }
    }
}
