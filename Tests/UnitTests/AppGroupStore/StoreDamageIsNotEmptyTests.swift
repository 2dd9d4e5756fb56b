import AppGroupStore
import ContactProviderSystem
import Foundation
import TestSupport
import Testing

/// Issue 10, item 1: a damaged store must never read as an empty or shorter one.
@Suite("Store integrity: damage is refused with path:line, never read as empty")
struct StoreDamageIsNotEmptyTests {
    private func database(_ group: TemporaryAppGroup) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        for identifier in ["a", "b", "c"] { try database.add(StoreFixtures.contact(identifier)) }
        try database.store.compact()
        for identifier in ["d", "e"] { try database.add(StoreFixtures.contact(identifier)) }
        return database
    }

    /// Every read and the next write fail with `malformed` at `path:line`, and no file changes.
    private func expectRefused(
        _ database: AppDatabase, path: String, line: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let store = database.store
        let before = [store.snapshotPath, store.journalPath].map { FileManager.default.contents(atPath: $0) }
        // The snapshot's own generation, when its header is readable: the journal must be read to answer.
        let header = (try? store.readSnapshotHeader()) ?? nil
        let generation = header?.generation ?? "x"
        var attempts: [(String, () throws -> Void)] = [
            ("load", { _ = try store.load() }), ("all", { _ = try database.all() }),
            ("get", { _ = try database.get("a") }),
            ("add", { try database.add(StoreFixtures.contact("new")) }),
            ("delete", { try database.delete(["a"]) }),
            ("compact", { try store.compact() }),
            ("changes", { _ = try store.changes(after: header?.baseSeq ?? 0, in: generation, limit: 10) }),
        ]
        if path == store.snapshotPath { attempts.append(("header", { _ = try store.readSnapshotHeader() })) }
        for (name, attempt) in attempts {
            let location = StoreFixtures.malformedLocation(attempt)
            #expect(location?.path == path, "\(name): \(String(describing: location))", sourceLocation: sourceLocation)
            #expect(location?.line == line, "\(name)", sourceLocation: sourceLocation)
        }
        let after = [store.snapshotPath, store.journalPath].map { FileManager.default.contents(atPath: $0) }
        #expect(after == before, "a refused command changed the files", sourceLocation: sourceLocation)
    }

    @Test("A missing snapshot.jsonl beside a journal is damage, not an empty database")
    func missingSnapshot() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            try FileManager.default.removeItem(atPath: database.store.snapshotPath)
            try expectRefused(database, path: database.store.snapshotPath, line: 1)
        }
    }

    @Test(
        "A snapshot whose last contact lost its newline is damage at that line for every whole read and for compaction (issue 29, item 5)"
    )
    func snapshotCutShort() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let store = database.store
            var bytes = try #require(FileManager.default.contents(atPath: store.snapshotPath))
            #expect(bytes.last == UInt8(ascii: "\n"))
            bytes.removeLast()
            try SecureFile.replace(store.snapshotPath, with: bytes, durable: false)
            // The header, then a, b and c: c's line, the fourth, is cut short. A compaction that
            // walked it as a journal's torn tail would have written a snapshot without c. (Reads and
            // writes of one contact stay O(log n) and do not walk the snapshot; they lose nothing.)
            for (name, attempt) in [
                ("load", { _ = try store.load() }), ("all", { _ = try database.all() }),
                ("compact", { try store.compact() }),
            ] as [(String, () throws -> Void)] {
                let location = StoreFixtures.malformedLocation(attempt)
                #expect(
                    location?.path == store.snapshotPath && location?.line == 4,
                    "\(name): \(String(describing: location))")
                #expect(location?.reason == "truncated line (no newline)", "\(name)")
            }
            #expect(FileManager.default.contents(atPath: store.snapshotPath) == bytes, "the snapshot was rewritten")
        }
    }

    @Test("An empty snapshot.jsonl is damage, not an empty database")
    func emptySnapshot() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            try SecureFile.replace(database.store.snapshotPath, with: Data(), durable: false)
            try expectRefused(database, path: database.store.snapshotPath, line: 1)
        }
    }

    @Test("One changed character in the journal header's generation is damage, not a stale journal")
    func changedJournalGeneration() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            var lines = try StoreFixtures.lines(database.store.journalPath)
            let generation = try database.store.load().generation
            let changed = String(generation.dropLast()) + (generation.last == "A" ? "B" : "A")
            lines[0] = lines[0].replacingOccurrences(of: generation, with: changed)
            try SecureFile.replace(
                database.store.journalPath, with: Data(lines.joined(separator: "\n").utf8), durable: false)
            try expectRefused(database, path: database.store.journalPath, line: 1)
        }
    }

    @Test("A journal of the previous generation with changes the snapshot does not hold is damage")
    func previousGenerationWithUnfoldedChanges() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let oldJournal = try StoreFixtures.bytes(database.store.journalPath)
            try database.store.compact()
            // The old journal, plus one change written after the compaction's snapshot was taken.
            let head = try database.store.load().headSeq
            var journal = oldJournal
            journal.append(Data(#"{"seq":\#(head + 1),"upsert":[{"identifier":"late"}]}"#.utf8 + [0x0A]))
            try SecureFile.replace(database.store.journalPath, with: journal, durable: false)
            try expectRefused(database, path: database.store.journalPath, line: 1)
        }
    }

    @Test("A journal header whose baseSeq disagrees with the snapshot is damage")
    func journalBaseSeqMismatch() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            var lines = try StoreFixtures.lines(database.store.journalPath)
            let baseSeq = try database.store.load().baseSeq
            lines[0] = lines[0].replacingOccurrences(of: #""baseSeq":\#(baseSeq)"#, with: #""baseSeq":\#(baseSeq + 1)"#)
            try SecureFile.replace(
                database.store.journalPath, with: Data(lines.joined(separator: "\n").utf8), durable: false)
            try expectRefused(database, path: database.store.journalPath, line: 1)
        }
    }

    @Test("A store never written reads as empty; a crash leftover proven superseded still reads as the snapshot")
    func legitimateEmptinessStillWorks() throws {
        try withTemporaryAppGroup { group in
            let fresh = AppDatabase(appGroup: group.appGroup)
            #expect(try fresh.all().isEmpty)
            #expect(try fresh.store.readSnapshotHeader() == nil)
            let database = try database(group)
            let oldJournal = try StoreFixtures.bytes(database.store.journalPath)
            try database.replaceAll(with: [StoreFixtures.contact("z")])
            try SecureFile.replace(database.store.journalPath, with: oldJournal, durable: false)
            #expect(try database.all().map(\.identifier) == ["z"])
            try database.add(StoreFixtures.contact("y"))
            #expect(try database.all().map(\.identifier) == ["z", "y"])
        }
    }

    @Test("The system store refuses a changed journal generation too (a sync would otherwise delete contacts)")
    func systemStoreChangedGeneration() throws {
        try withTemporaryAppGroup { group in
            let store = SystemStore(directory: group.path + "/system")
            try store.reset(meta: .initial)
            try store.append(upsert: [StoreFixtures.contact("a")], meta: .initial)
            let generation = try #require(try store.readSnapshotHeader()).generation
            var lines = try StoreFixtures.lines(store.journalPath)
            // A different first character (a generation that already starts with "0" must still change).
            let changed = (generation.first == "0" ? "1" : "0") + generation.dropFirst()
            lines[0] = lines[0].replacingOccurrences(of: generation, with: changed)
            try SecureFile.replace(store.journalPath, with: Data(lines.joined(separator: "\n").utf8), durable: false)
            let before = try StoreFixtures.bytes(store.journalPath)
            #expect(StoreFixtures.malformedLocation { _ = try store.load() }?.path == store.journalPath)
            #expect(
                StoreFixtures.malformedLocation {
                    try store.append(upsert: [StoreFixtures.contact("b")], meta: .initial)
                }?.line == 1)
            #expect(try StoreFixtures.bytes(store.journalPath) == before)
        }
    }
}
