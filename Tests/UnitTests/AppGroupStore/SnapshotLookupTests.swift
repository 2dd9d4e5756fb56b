import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("JournaledStore.lookup: binary search over the snapshot, journal on top")
struct SnapshotLookupTests {
    /// Identifiers of varied length and alphabet, so bytewise order differs from numeric order.
    private static func identifiers(_ count: Int) -> [String] {
        (0..<count).map { index in
            switch index % 4 {
            case 0: return "id-\(index)"
            case 1: return "\(index * 7919 % 10007)-x"
            case 2: return "Z\(index)/slash"
            default: return "é\(index)ü"
            }
        }
    }

    @Test("Every identifier in a compacted snapshot of 3,000 contacts is found; absent ones are not")
    func findsEveryIdentifier() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            let identifiers = Self.identifiers(3000)
            let records = identifiers.map { StoreFixtures.contact($0, given: "G-\($0)") }
            try database.store.append(upsert: records)
            try database.store.compact()
            // The journal now holds only its header: every answer comes from the snapshot.
            #expect(try StoreFixtures.lineCount(database.store.journalPath) == 1)
            #expect(try StoreFixtures.lineCount(database.store.snapshotPath) == 3001)

            for record in records {
                #expect(try database.store.lookup(record.identifier) == record)
            }
            for absent in ["", "a", "id-", "id-30000", "zzz", "Z", "é", "0", "\u{10FFFF}", "id-1 ", "ID-0"] {
                #expect(try database.store.lookup(absent) == nil, "found \(absent)")
            }
        }
    }

    @Test("The snapshot is sorted bytewise by identifier")
    func snapshotSorted() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.store.append(upsert: Self.identifiers(200).map { StoreFixtures.contact($0) })
            try database.store.compact()
            let lines = try StoreFixtures.lines(database.store.snapshotPath).dropFirst().filter { !$0.isEmpty }
            let identifiers = try lines.map {
                try JSONDecoder().decode(ContactRecord.self, from: Data($0.utf8)).identifier
            }
            #expect(identifiers.count == 200)
            #expect(identifiers == identifiers.sorted { IdentifierOrder.precedes($0, $1) })
        }
    }

    @Test("Journal entries override the snapshot: update, delete and re-add")
    func journalOverridesSnapshot() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.store.append(upsert: (0..<500).map { StoreFixtures.contact("c\($0)", given: "Snap") })
            try database.store.compact()

            try database.update("c10") { $0.givenName = "Journal" }
            try database.delete(["c20"])
            try database.delete(["c30"])
            try database.add(StoreFixtures.contact("c30", given: "Back"))
            try database.add(StoreFixtures.contact("new", given: "Fresh"))

            #expect(try database.get("c10")?.givenName == "Journal")
            #expect(try database.get("c20") == nil)
            #expect(try database.get("c30")?.givenName == "Back")
            #expect(try database.get("new")?.givenName == "Fresh")
            #expect(try database.get("c11")?.givenName == "Snap")
            #expect(throws: StoreError.notFound(identifier: "c20")) { try database.update("c20") { _ in } }

            // load() agrees with lookup().
            let state = try database.store.load()
            #expect(state.count == 500)
            #expect(state.records["c10"]?.givenName == "Journal")
            #expect(state.records["c20"] == nil)
        }
    }

    @Test("A name that equals another contact's identifier does not confuse the journal scan")
    func needleInOtherField() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("target", given: "Real"))
            try database.add(StoreFixtures.contact("other", given: "target"))
            try database.add(StoreFixtures.contact("target2", given: "Prefix"))
            #expect(try database.get("target")?.givenName == "Real")
            #expect(try database.get("targe") == nil)
            #expect(try database.get("other")?.givenName == "target")
        }
    }
}
