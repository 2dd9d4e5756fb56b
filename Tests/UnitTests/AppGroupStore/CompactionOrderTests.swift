import AppGroupStore
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// Compaction orders the new snapshot by merging the old snapshot's identifiers (in order) with
/// those the journal added, instead of sorting every identifier (issue 44: the sort was about 40%
/// of a compaction after a full sync).
@Suite("Compaction order: the snapshot's identifiers merged with the journal's, each once, in order")
struct CompactionOrderTests {
    /// Identifiers whose bytewise order is not their numeric one (and some not ASCII).
    private static func identifier(_ index: Int) -> String {
        switch index % 3 {
        case 0: return "id-\(index)"
        case 1: return "\(index * 7919 % 10007)-x"
        default: return "é\(index)"
        }
    }

    @Test(
        "merge equals sorting the union of what is kept, for random lists with repeats and re-adds", arguments: 0..<20)
    func mergeEqualsSortedUnion(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let ordered = Set((0..<random.below(60)).map { _ in Self.identifier(random.below(200)) })
            .sorted(by: IdentifierOrder.precedes)
        // Added in any order: new ones, some twice, and some of the ordered ones again (deleted, then re-added).
        var added = (0..<random.below(60)).map { _ in Self.identifier(random.below(200)) }
        if random.below(3) == 0 { added.sort(by: IdentifierOrder.precedes) }
        let dropped = Set((ordered + added).filter { _ in random.below(4) == 0 })
        var asked: [String: Int] = [:]
        let merged = IdentifierOrder.merge(ordered: ordered, added: added) { identifier in
            asked[identifier, default: 0] += 1
            return !dropped.contains(identifier)
        }
        let expected = Set<String>(ordered).union(added).subtracting(dropped).sorted(by: IdentifierOrder.precedes)
        #expect(merged == expected, "seed \(seed)")
        #expect(IdentifierOrder.isOrdered(merged), "seed \(seed)")
        #expect(asked.values.allSatisfy { $0 == 1 }, "each identifier is asked about once (seed \(seed))")
    }

    @Test("isOrdered: strictly in order, so a repeat is out of order")
    func isOrdered() {
        #expect(IdentifierOrder.isOrdered([]) && IdentifierOrder.isOrdered(["a"]))
        #expect(IdentifierOrder.isOrdered(["A", "a", "b", "é"]))
        #expect(!IdentifierOrder.isOrdered(["a", "a"]))
        #expect(!IdentifierOrder.isOrdered(["b", "a"]))
    }

    @Test(
        "A compaction of a snapshot and a journal of adds out of order, updates, deletes and re-adds keeps each contact once, in order, with its last value"
    )
    func compactionKeepsEachContactOnceInOrder() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            var expected: [String: ContactRecord] = [:]
            let first = (0..<300).map { StoreFixtures.contact(Self.identifier($0), given: "Snapshot") }
            try database.store.append(upsert: first)
            try database.store.compact()
            for record in first { expected[record.identifier] = record }
            // Journal: new contacts in reverse order, updates, deletes, and deleted ones added again.
            let fresh = (300..<420).reversed().map { StoreFixtures.contact(Self.identifier($0), given: "Added") }
            try database.store.append(upsert: fresh)
            for record in fresh { expected[record.identifier] = record }
            let deleted = stride(from: 0, to: 420, by: 7).map(Self.identifier)
            try database.store.append(delete: deleted)
            for identifier in deleted { expected[identifier] = nil }
            let readded = stride(from: 0, to: 420, by: 14).map {
                StoreFixtures.contact(Self.identifier($0), given: "Back")
            }
            try database.store.append(upsert: readded)
            for record in readded { expected[record.identifier] = record }
            let updated = stride(from: 1, to: 420, by: 5).map {
                StoreFixtures.contact(Self.identifier($0), given: "New")
            }
            .filter { expected[$0.identifier] != nil }
            try database.store.append(upsert: updated)
            for record in updated { expected[record.identifier] = record }

            try database.store.compact()
            let lines = try StoreFixtures.lines(database.store.snapshotPath).dropFirst().filter { !$0.isEmpty }
            let records = try lines.map { try JSONDecoder().decode(ContactRecord.self, from: Data($0.utf8)) }
            #expect(records.map(\.identifier) == expected.keys.sorted(by: IdentifierOrder.precedes))
            #expect(records.allSatisfy { expected[$0.identifier] == $0 })
        }
    }

    @Test("areDistinct: true exactly when no identifier repeats, in order or not", arguments: 0..<20)
    func distinctIdentifiers(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var identifiers = (0..<random.below(40)).map { _ in Self.identifier(random.below(60)) }
        if random.below(2) == 0 { identifiers.sort(by: IdentifierOrder.precedes) }
        let records = identifiers.map { ContactRecord(identifier: $0) }
        #expect(IdentifierOrder.areDistinct(records) == (Set(identifiers).count == identifiers.count), "seed \(seed)")
        let unique = Set(identifiers).sorted(by: IdentifierOrder.precedes).map { ContactRecord(identifier: $0) }
        #expect(IdentifierOrder.areDistinct(unique), "seed \(seed)")
        if let first = unique.first {
            #expect(!IdentifierOrder.areDistinct(unique + [first]), "a repeat after an ordered run (seed \(seed))")
        }
    }
}
