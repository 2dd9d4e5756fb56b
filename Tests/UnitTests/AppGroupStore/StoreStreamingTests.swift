import AppGroupStore
import ContactProviderTesting
import ContactsInterop
import Foundation
import TestSupport
import Testing

/// Issue 44: the streamed reads (`forEachContact`, `verify`, a streamed search) answer exactly what
/// a whole load answers, and refuse what it refuses, naming the same line.
@Suite("Streamed reads: the same contacts as a load, the same refusals")
struct StoreStreamingTests {
    private func contact(_ identifier: String, _ random: inout SeededRandom) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.givenName = ["Ada", "Alan", "Grace", "Émile"][random.below(4)]
        if random.chance(0.5) { record.emailAddresses = [.init(label: nil, value: "\(identifier)@example.com")] }
        return record
    }

    private func streamed(_ store: JournaledStore<NoMetadata>) throws -> (count: Int, contacts: [ContactRecord]) {
        var told = -1
        var contacts: [ContactRecord] = []
        try store.forEachContact(count: { told = $0 }, { contacts.append($0) })
        return (told, contacts)
    }

    @Test(
        "Across seeded adds, updates, deletes and compactions, forEachContact and a streamed search equal load()",
        arguments: [UInt64(3), 7, 33, 42, 333])
    func sameAsLoad(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let store = AppDatabase(appGroup: group.appGroup).store
            #expect(try streamed(store).contacts.isEmpty)
            try store.append(upsert: (0..<30).map { contact("c-\($0)", &random) })
            for step in 0..<40 {
                switch random.below(5) {
                case 0, 1: try store.append(upsert: [contact("c-\(random.below(45))", &random)])
                case 2: try store.append(delete: ["c-\(random.below(45))"])
                case 3: try store.compact()
                default: try store.append(upsert: [contact("n-\(step)", &random)], delete: ["c-\(random.below(45))"])
                }
                let loaded = try store.load().contacts
                let (count, contacts) = try streamed(store)
                #expect(contacts == loaded, "step \(step)")
                #expect(count == loaded.count, "step \(step)")
                try store.verify()
                for query in [ContactSearch.Query.name("a"), .email("c-3@example.com")] {
                    var found: [ContactRecord] = []
                    try ContactSearch.forEachMatch(store, query) { found.append($0) }
                    #expect(found == ContactSearch.search(loaded, query), "step \(step), \(query)")
                }
            }
        }
    }

    @Test("A snapshot value load() refuses is refused by forEachContact and verify at the same line, never skipped")
    func badValueIsRefused() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            try store.append(upsert: ["a", "b", "c"].map { ContactRecord(identifier: $0) })
            try store.compact()
            var lines = try StoreFixtures.lines(store.snapshotPath).filter { !$0.isEmpty }
            #expect(lines.count == 4, "the header and three contacts")
            // Line 3 is contact "b": valid JSON with its identifier, but a given name that is a number.
            #expect(lines[2].contains("\"b\""))
            lines[2] = "{\"identifier\":\"b\",\"givenName\":5}"
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: store.snapshotPath))
            let loaded = try #require(StoreFixtures.malformedLocation { _ = try store.load() })
            #expect(loaded.path == store.snapshotPath && loaded.line == 3)
            var given: [String] = []
            let streamed = try #require(
                StoreFixtures.malformedLocation { try store.forEachContact { given.append($0.identifier) } })
            #expect(streamed.path == loaded.path && streamed.line == loaded.line, "\(streamed), \(loaded)")
            #expect(given == ["a"], "the contacts before it, and nothing after it")
            let verified = try #require(StoreFixtures.malformedLocation { try store.verify() })
            #expect(verified.path == loaded.path && verified.line == loaded.line && verified.reason == loaded.reason)
            #expect(try store.check().contains { $0.path == store.snapshotPath && $0.line == 3 })
        }
    }
}
