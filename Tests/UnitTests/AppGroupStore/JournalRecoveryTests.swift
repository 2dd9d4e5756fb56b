import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("JournaledStore recovery: torn tails, malformed lines, interrupted compactions")
struct JournalRecoveryTests {
    private func database(_ group: TemporaryAppGroup, contacts identifiers: [String]) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        for identifier in identifiers { try database.add(StoreFixtures.contact(identifier)) }
        return database
    }

    @Test("A torn last line is ignored by readers and cut off by the next writer")
    func tornTail() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b"])
            let journalPath = database.store.journalPath
            let intact = try StoreFixtures.bytes(journalPath)
            let before = try database.store.load()
            try StoreFixtures.append(
                #"{"seq":\#(before.headSeq + 1),"upsert":[{"identifier":"torn","giv"#, to: journalPath)

            let loaded = try database.store.load()
            #expect(loaded.contacts.map(\.identifier) == ["a", "b"])
            #expect(loaded.headSeq == before.headSeq)
            #expect(try database.get("torn") == nil)
            let window = try #require(
                try StoreFixtures.entries(database.store, after: before.baseSeq, in: before.generation))
            #expect(window.headSeq == before.headSeq)
            #expect(window.entries.count == 2)

            try database.add(StoreFixtures.contact("c"))
            let after = try StoreFixtures.bytes(journalPath)
            #expect(after.prefix(intact.count) == intact)
            let lines = try StoreFixtures.lines(journalPath)
            #expect(lines.count == 5)  // header, a, b, c, and "" after the final newline
            #expect(lines.last == "")
            #expect(!lines.contains { $0.contains("torn") })
            let reloaded = try database.store.load()
            #expect(reloaded.contacts.map(\.identifier) == ["a", "b", "c"])
            #expect(reloaded.headSeq == before.headSeq + 1)
        }
    }

    @Test("A torn tail right after the header is cut off too")
    func tornTailAfterHeader() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a"])
            try database.store.compact()
            try StoreFixtures.append("{\"seq\":", to: database.store.journalPath)
            #expect(try database.all().map(\.identifier) == ["a"])
            try database.add(StoreFixtures.contact("b"))
            #expect(try StoreFixtures.lineCount(database.store.journalPath) == 2)
            #expect(try database.all().map(\.identifier) == ["a", "b"])
        }
    }

    @Test(
        "A malformed complete line is reported with the journal's path and line, and no write touches the file",
        arguments: ["this is not json", #"{"seq":3,"upsert":[{"identifier":5}]}"#])
    func malformedLine(line: String) throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b"])
            let journalPath = database.store.journalPath
            try StoreFixtures.append(line + "\n", to: journalPath)
            let damaged = try StoreFixtures.bytes(journalPath)

            func expectMalformed(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
                let location = StoreFixtures.malformedLocation(body)
                #expect(location?.path == journalPath, sourceLocation: sourceLocation)
                #expect(location?.line == 4, sourceLocation: sourceLocation)  // header, a, b, then the bad line
            }

            expectMalformed { _ = try database.store.load() }
            expectMalformed { _ = try database.all() }
            expectMalformed { try database.add(StoreFixtures.contact("c")) }
            expectMalformed { try database.add(StoreFixtures.contact("")) }
            expectMalformed { try database.update("a") { $0.givenName = "X" } }
            expectMalformed { try database.store.compact() }
            #expect(try StoreFixtures.bytes(journalPath) == damaged)
            // A torn tail after the damage is not "repaired" away either.
            try StoreFixtures.append("{\"seq\":9", to: journalPath)
            let damagedAndTorn = try StoreFixtures.bytes(journalPath)
            expectMalformed { try database.add(StoreFixtures.contact("d")) }
            #expect(try StoreFixtures.bytes(journalPath) == damagedAndTorn)
            #expect(damagedAndTorn.prefix(damaged.count) == damaged)
        }
    }

    @Test("The error message names the file and the line")
    func malformedDescription() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a"])
            try StoreFixtures.append("garbage\n", to: database.store.journalPath)
            do {
                _ = try database.store.load()
                Issue.record("load should fail")
            } catch let error as StoreError {
                #expect(error.description.hasPrefix(database.store.journalPath + ":3: malformed"))
            }
        }
    }

    @Test("A journal line whose seq does not follow is malformed")
    func seqGap() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a"])
            let head = try database.store.load().headSeq
            try StoreFixtures.append(
                #"{"seq":\#(head + 2),"upsert":[{"identifier":"gap"}]}"# + "\n", to: database.store.journalPath)
            #expect(throws: StoreError.self) { _ = try database.store.load() }
        }
    }

    @Test("A malformed snapshot line is reported with the snapshot's path and line")
    func malformedSnapshot() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b", "c"])
            try database.store.compact()
            var lines = try StoreFixtures.lines(database.store.snapshotPath)
            lines[2] = #"{"identifier":"b","birthday":"never"}"#
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: database.store.snapshotPath))
            let location = try #require(StoreFixtures.malformedLocation { _ = try database.store.load() })
            #expect(location.path == database.store.snapshotPath)
            #expect(location.line == 3)
            #expect(location.reason.contains("never"))
        }
    }

    @Test("A crash between a compaction's two renames leaves a stale journal that is not applied twice")
    func crashBetweenCompactionRenames() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b"])
            try database.update("a") { $0.givenName = "Updated" }
            try database.delete(["b"])
            let before = try database.store.load()
            let oldJournal = try StoreFixtures.bytes(database.store.journalPath)

            try database.store.compact()
            // Put the old journal back: as if the process died after renaming the new snapshot in.
            try oldJournal.write(to: URL(fileURLWithPath: database.store.journalPath))

            let loaded = try database.store.load()
            #expect(loaded.generation != before.generation)
            #expect(loaded.previousGeneration == before.generation)
            #expect(loaded.headSeq == before.headSeq)
            #expect(loaded.contacts == before.contacts)
            #expect(loaded.contacts.map(\.identifier) == ["a"])
            #expect(try database.get("a")?.givenName == "Updated")
            #expect(try database.get("b") == nil)
            // The head anchor is still valid, with nothing new.
            let window = try #require(
                try StoreFixtures.entries(database.store, after: before.headSeq, in: before.generation))
            #expect(window.entries.isEmpty)

            // The next write replaces the stale journal and continues the sequence.
            try database.add(StoreFixtures.contact("c"))
            let after = try database.store.load()
            #expect(after.headSeq == before.headSeq + 1)
            #expect(after.contacts.map(\.identifier) == ["a", "c"])
            #expect(try StoreFixtures.lineCount(database.store.journalPath) == 2)
            let header = try StoreFixtures.lines(database.store.journalPath)[0]
            #expect(header.contains(after.generation))
        }
    }

    @Test("A crash between a reset's two renames leaves the database empty")
    func crashBetweenResetRenames() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b"])
            let oldJournal = try StoreFixtures.bytes(database.store.journalPath)
            try database.reset()
            try oldJournal.write(to: URL(fileURLWithPath: database.store.journalPath))
            #expect(try database.all().isEmpty)
            #expect(try database.get("a") == nil)
            try database.add(StoreFixtures.contact("z"))
            #expect(try database.all().map(\.identifier) == ["z"])
        }
    }

    @Test("refresh reads only new lines and follows compactions and resets")
    func refresh() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a"])
            var state = try database.store.load()
            try database.add(StoreFixtures.contact("b"))
            try database.store.refresh(&state)
            #expect(state.contacts.map(\.identifier) == ["a", "b"])
            try database.store.compact()
            try database.delete(["a"])
            try database.store.refresh(&state)
            #expect(state.contacts.map(\.identifier) == ["b"])
            #expect(state.generation == (try database.store.load().generation))
            try database.reset()
            try database.store.refresh(&state)
            #expect(state.count == 0)
        }
    }

    @Test("refresh reports a malformed new line with its real line number")
    func refreshMalformed() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group, contacts: ["a", "b"])
            var state = try database.store.load()
            try StoreFixtures.append("oops\n", to: database.store.journalPath)
            let location = try #require(StoreFixtures.malformedLocation { try database.store.refresh(&state) })
            #expect(location.path == database.store.journalPath)
            #expect(location.line == 4)
        }
    }
}
