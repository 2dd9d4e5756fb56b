import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// Issue 10, item 2: one identity rule for identifiers on every path (canonical equivalence, stored as NFC).
@Suite("Identifier identity: canonically equivalent identifiers are one contact everywhere")
struct IdentifierIdentityTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test("validate refuses a control character exactly as the scalars tell (seeded ASCII, control and non-ASCII text)")
    func controlCharactersByBytes() {
        var random = SeededRandom(seed: 44)
        let pool: [Unicode.Scalar] = [
            "a", "Z", " ", "~", "\u{7F}", "\u{0}", "\u{1F}", "\n", "\u{E9}", "\u{80}", "\u{9F}", "\u{4E2D}",
            "\u{1F600}",
            "\u{FEFF}",
        ]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<random.int(1...8) { text.unicodeScalars.append(pool[random.below(pool.count)]) }
            let control = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            #expect(((try? IdentifierRules.validate(text)) == nil) == control, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("The two spellings differ in bytes but are one identifier")
    func spellings() {
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        #expect(Array(IdentifierRules.normalized(Self.decomposed).utf8) == Array(Self.composed.utf8))
        #expect(IdentifierRules.normalized("plain-ascii") == "plain-ascii")
    }

    @Test("add composed then decomposed: the second is a duplicate; get, update and delete use either spelling")
    func addBothSpellings() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact(Self.composed, given: "First"))
            #expect(throws: StoreError.duplicateIdentifier(Self.composed)) {
                try database.add(StoreFixtures.contact(Self.decomposed, given: "Second"))
            }
            #expect(try database.all().count == 1)
            #expect(try database.get(Self.decomposed)?.givenName == "First")
            try database.update(Self.decomposed) { $0.givenName = "Updated" }
            #expect(try database.all().map(\.givenName) == ["Updated"])
            try database.store.compact()
            #expect(try database.all().count == 1)
            #expect(try database.get(Self.composed)?.givenName == "Updated")
            // Every byte on disk is the NFC form.
            let files =
                try StoreFixtures.bytes(database.store.snapshotPath) + StoreFixtures.bytes(database.store.journalPath)
            #expect(!String(decoding: files, as: UTF8.self).unicodeScalars.contains("\u{301}"))
            try database.delete([Self.decomposed])
            #expect(try database.all().isEmpty)
        }
    }

    @Test("Decomposed first, then composed: stored as NFC, still one contact")
    func decomposedFirst() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let added = try database.add(StoreFixtures.contact(Self.decomposed))
            #expect(Array(added.identifier.utf8) == Array(Self.composed.utf8))
            #expect(throws: StoreError.self) { try database.add(StoreFixtures.contact(Self.composed)) }
            #expect(try database.all().map { Array($0.identifier.utf8) } == [Array(Self.composed.utf8)])
        }
    }

    @Test("Import (upsert) and replaceAll with both spellings keep one contact, the last value")
    func importBothSpellings() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let counts = try database.upsert([
                StoreFixtures.contact(Self.composed, given: "A"), StoreFixtures.contact(Self.decomposed, given: "B"),
            ])
            #expect(counts.added == 1 && counts.updated == 1)
            #expect(try database.all().map(\.givenName) == ["B"])
            try database.store.compact()
            #expect(try database.all().map(\.givenName) == ["B"])
            try database.replaceAll(with: [
                StoreFixtures.contact(Self.decomposed, given: "C"), StoreFixtures.contact(Self.composed, given: "D"),
                StoreFixtures.contact("cafd"), StoreFixtures.contact("cafz"),
            ])
            // The snapshot is sorted by the stored (NFC) bytes, so it loads and lookups binary-search it.
            #expect(try database.all().map(\.identifier) == ["cafd", "cafz", Self.composed])
            #expect(try database.get(Self.decomposed)?.givenName == "D")
        }
    }

    @Test("The system store keeps one contact for both spellings and deletes it by either")
    func systemStore() throws {
        try withTemporaryAppGroup { group in
            let store = SystemStore(directory: group.path + "/system")
            try store.reset(meta: .initial)
            var state = try SystemStore(directory: store.directory, retainsContacts: false).load()
            try store.append(upsert: [StoreFixtures.contact(Self.decomposed)], meta: .initial)
            try store.append(upsert: [StoreFixtures.contact(Self.composed)], meta: .initial)
            #expect(try store.load().count == 1)
            #expect(try store.lookup(Self.decomposed) != nil)
            let light = SystemStore(directory: store.directory, retainsContacts: false)
            #expect(try light.append(delete: [Self.decomposed], meta: .initial, to: &state))
            #expect(try store.load().count == 0)
            #expect(try store.lookup(Self.composed) == nil)
        }
    }
}
