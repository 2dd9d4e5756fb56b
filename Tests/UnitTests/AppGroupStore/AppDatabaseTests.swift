import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("AppDatabase: add, update, delete, get, all")
struct AppDatabaseTests {
    @Test("Added contacts can be read back by identifier and in insertion order")
    func addGetAll() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.fullContact("a"))
            try database.add(StoreFixtures.contact("c", given: "Cee"))
            try database.add(StoreFixtures.contact("b", given: "Bee"))
            #expect(try database.get("a") == StoreFixtures.fullContact("a"))
            #expect(try database.get("b")?.givenName == "Bee")
            #expect(try database.get("missing") == nil)
            #expect(try database.all().map(\.identifier) == ["a", "c", "b"])
        }
    }

    @Test("A contact without an identifier gets a fresh UUID")
    func generatedIdentifier() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let first = try database.add(StoreFixtures.contact(""))
            let second = try database.add(StoreFixtures.contact(""))
            #expect(UUID(uuidString: first.identifier) != nil)
            #expect(first.identifier != second.identifier)
            #expect(try database.get(first.identifier)?.givenName == "Given")
            #expect(try database.all().count == 2)
        }
    }

    @Test("A duplicate identifier is rejected and nothing is written")
    func duplicateRejected() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("dup", given: "First"))
            let journal = try StoreFixtures.bytes(database.store.journalPath)
            #expect(throws: StoreError.duplicateIdentifier("dup")) {
                try database.add(StoreFixtures.contact("dup", given: "Second"))
            }
            #expect(try StoreFixtures.bytes(database.store.journalPath) == journal)
            #expect(try database.get("dup")?.givenName == "First")
        }
    }

    @Test("An invalid identifier is rejected before anything is written")
    func invalidIdentifierRejected() throws {
        try withTemporaryAppGroup { group throws in
            let database = AppDatabase(appGroup: group.appGroup)
            #expect(throws: StoreError.self) { try database.add(StoreFixtures.contact("bad\u{7}id")) }
            #expect(try database.all().isEmpty)
        }
    }

    @Test("Identifiers with slashes and non-ASCII characters are found in the journal")
    func unusualIdentifiers() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for identifier in ["a/b", "x:y/z\\w", "quote\"d", "é-ü-日本"] {
                try database.add(StoreFixtures.contact(identifier, given: identifier))
                #expect(try database.get(identifier)?.givenName == identifier)
                #expect(throws: StoreError.duplicateIdentifier(identifier)) {
                    try database.add(StoreFixtures.contact(identifier))
                }
                try database.update(identifier) { $0.familyName = "Updated" }
                #expect(try database.get(identifier)?.familyName == "Updated")
            }
            try database.delete(["a/b"])
            #expect(try database.get("a/b") == nil)
            #expect(try database.all().count == 3)
        }
    }

    @Test("update changes only what the closure changes and keeps the identifier")
    func updateKeepsIdentifier() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("u", given: "Old", family: "Name", phone: "1"))
            let updated = try database.update("u") { record in
                record.givenName = "New"
                record.identifier = "hijacked"
            }
            #expect(updated.identifier == "u")
            let stored = try #require(try database.get("u"))
            #expect(stored.givenName == "New")
            #expect(stored.familyName == "Name")
            #expect(stored.phoneNumbers.map(\.value) == ["1"])
            #expect(try database.get("hijacked") == nil)
        }
    }

    @Test("Updating or deleting an unknown identifier throws notFound and writes nothing")
    func unknownIdentifier() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("known"))
            let journal = try StoreFixtures.bytes(database.store.journalPath)
            #expect(throws: StoreError.notFound(identifier: "ghost")) {
                try database.update("ghost") { $0.givenName = "Boo" }
            }
            #expect(throws: StoreError.notFound(identifier: "ghost")) { try database.delete(["known", "ghost"]) }
            #expect(try StoreFixtures.bytes(database.store.journalPath) == journal)
            #expect(try database.get("known") != nil)
        }
    }

    @Test("delete removes every listed contact in one journal entry")
    func deleteSeveral() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for identifier in ["a", "b", "c"] { try database.add(StoreFixtures.contact(identifier)) }
            let before = try database.store.load().headSeq
            try database.delete(["a", "c"])
            #expect(try database.all().map(\.identifier) == ["b"])
            #expect(try database.store.load().headSeq == before + 1)
        }
    }

    @Test("A record with an invalid birthday is refused and the database stays readable")
    func invalidBirthdayNotStored() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("ok"))
            var bad = StoreFixtures.contact("bad")
            bad.birthday = "1990-13-45"
            #expect(throws: (any Error).self) { try database.add(bad) }
            #expect(throws: (any Error).self) { try database.update("ok") { $0.birthday = "soon" } }
            #expect(try database.all().map(\.identifier) == ["ok"])
            #expect(try database.get("ok")?.birthday == nil)
        }
    }

    @Test("upsert counts additions and replacements and writes one entry per contact")
    func upsertCounts() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a", given: "Old"))
            let before = try database.store.load().headSeq
            let result = try database.upsert([
                StoreFixtures.contact("a", given: "New"), StoreFixtures.contact("b"),
                StoreFixtures.contact("b", given: "Again"),
            ])
            #expect(result.added == 1)
            #expect(result.updated == 2)
            #expect(try database.get("a")?.givenName == "New")
            #expect(try database.get("b")?.givenName == "Again")
            #expect(try database.store.load().headSeq == before + 3)
        }
    }

    @Test("reset empties the database and starts a generation without history")
    func reset() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            let before = try database.store.load()
            try database.reset()
            let after = try database.store.load()
            #expect(after.count == 0)
            #expect(try database.all().isEmpty)
            #expect(try database.get("a") == nil)
            #expect(after.generation != before.generation)
            #expect(after.previousGeneration == nil)
            #expect(after.baseSeq == before.headSeq)
            try database.add(StoreFixtures.contact("a"))
            #expect(try database.get("a") != nil)
        }
    }

    @Test("A database that was never written reads as empty and creates no files")
    func emptyDatabase() throws {
        try withTemporaryAppGroup { group throws in
            let database = AppDatabase(appGroup: group.appGroup)
            #expect(try database.all().isEmpty)
            #expect(try database.get("x") == nil)
            #expect(try database.store.load().generation == "")
            #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
        }
    }
}
