import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// `CompactionFold` keeps lists while the journal only adds identifiers in order, and moves to a
/// dictionary otherwise: either way its lines are those of the dictionary fold compaction used before.
@Suite("Compaction fold: the same lines as folding through a dictionary, with or without one")
struct CompactionFoldTests {
    struct Tag: Codable, Equatable, Sendable {
        var value: Int
    }

    private static func membersOnlyStore(_ group: TemporaryAppGroup) -> JournaledStore<Tag> {
        JournaledStore<Tag>(directory: group.path + "/store", retainsContacts: false, keepsOrder: false)
    }

    @Test("Compaction's expected count: the last line's live count, bounded by the journal, else the snapshot's")
    func expectedCount() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var state = try store.load()
            for page in 0..<3 {
                let contacts = (0..<20).map { StoreFixtures.contact("p\(page)-\(String(format: "%02d", $0))") }
                #expect(
                    try store.append(upsert: contacts, meta: Tag(value: page), to: &state, upsertsAreDistinct: true))
            }
            func expected(snapshotCount: Int) throws -> Int {
                let journal = try #require(try MappedFile.openJournalIfPresent(store.journalPath))
                let start = try #require(journal.newline(from: 0)) + 1
                return JournaledStore<Tag>.expectedCount(snapshotCount: snapshotCount, journal: journal, from: start)
            }
            #expect(try expected(snapshotCount: 0) == 60)
            #expect(try expected(snapshotCount: 100) == 100, "never less than the snapshot's")
            // A torn last line: the complete line before it answers.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store.journalPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"seq":4,"count":999999999,"upsert":[{"ident"#.utf8))
            try handle.close()
            #expect(try expected(snapshotCount: 0) == 60)
            // A line without a count (another writer's) gives the snapshot's.
            try store.compact()
            try store.append(upsert: [StoreFixtures.contact("z")])
            #expect(try expected(snapshotCount: 7) == 7)
        }
    }

    @Test("A damaged count reserves no more than the journal's bytes could hold")
    func damagedCountIsBounded() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var state = try store.load()
            #expect(try store.append(upsert: [StoreFixtures.contact("a")], to: &state, upsertsAreDistinct: true))
            var journal = try Data(contentsOf: URL(fileURLWithPath: store.journalPath))
            let text = String(decoding: journal, as: UTF8.self)
                .replacingOccurrences(of: #""count":1,"#, with: #""count":900000000000,"#)
            journal = Data(text.utf8)
            try journal.write(to: URL(fileURLWithPath: store.journalPath))
            let mapped = try #require(try MappedFile.openJournalIfPresent(store.journalPath))
            let start = try #require(mapped.newline(from: 0)) + 1
            let count = JournaledStore<Tag>.expectedCount(snapshotCount: 0, journal: mapped, from: start)
            #expect(count == (journal.count - start) / 16)
        }
    }

    private enum Step {
        case upsert(String, CompactedLine)
        case delete(String)
    }

    /// The fold as compaction did it before: every identifier's last line in a dictionary, then sorted.
    private static func reference(snapshot: [(String, Range<Int>)], steps: [Step]) -> [CompactedLine] {
        var lines: [String: CompactedLine] = [:]
        for (identifier, range) in snapshot { lines[identifier] = .snapshot(range) }
        for step in steps {
            switch step {
            case .upsert(let identifier, let line): lines[identifier] = line
            case .delete(let identifier): lines[identifier] = nil
            }
        }
        return lines.keys.sorted(by: IdentifierOrder.precedes).map { lines[$0]! }
    }

    private static func identifier(_ index: Int) -> String {
        index % 4 == 3 ? "é\(index)" : String(format: "id-%04d", index)
    }

    @Test("Random snapshots and journals: in order, out of order, repeats, deletions, encoded lines", arguments: 0..<60)
    func matchesReference(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var snapshotIdentifiers = Set((0..<random.below(40)).map { _ in Self.identifier(random.below(120)) })
            .sorted(by: IdentifierOrder.precedes)
        if random.below(8) == 0 { snapshotIdentifiers.shuffle(using: &random) }
        let snapshot = snapshotIdentifiers.enumerated().map { ($0.element, ($0.offset * 10)..<($0.offset * 10 + 5)) }
        // Mostly the full-sync shape (increasing upserts, none deleted), sometimes anything.
        let shape = random.below(3)
        var next = random.below(20)
        var steps: [Step] = []
        for index in 0..<random.below(50) {
            let line: CompactedLine =
                random.below(10) == 0 ? .encoded(Data("\(index)".utf8)) : .journal((1000 + index)..<(1003 + index))
            switch shape {
            case 0:
                next += 1 + random.below(3)
                steps.append(.upsert(Self.identifier(next), line))
            default:
                let identifier = Self.identifier(random.below(120))
                steps.append(random.below(5) == 0 && shape == 2 ? .delete(identifier) : .upsert(identifier, line))
            }
        }
        var fold = CompactionFold(snapshotCount: snapshot.count, expectedCount: snapshot.count + steps.count)
        for (identifier, range) in snapshot { fold.snapshotLine(identifier, range) }
        for step in steps {
            switch step {
            case .upsert(let identifier, let line): fold.upsert(identifier, line)
            case .delete(let identifier): fold.delete(identifier)
            }
        }
        let expected = Self.reference(snapshot: snapshot, steps: steps)
        #expect(fold.finish() == expected, "seed \(seed), shape \(shape)")
    }

    @Test("A journal that re-adds snapshot contacts in order takes the journal's lines, each contact once")
    func journalWinsOverSnapshot() {
        var fold = CompactionFold(snapshotCount: 3, expectedCount: 4)
        fold.snapshotLine("a", 0..<1)
        fold.snapshotLine("c", 2..<3)
        fold.snapshotLine("e", 4..<5)
        fold.upsert("b", .journal(10..<11))
        fold.upsert("c", .journal(12..<13))
        fold.upsert("f", .journal(14..<15))
        #expect(
            fold.finish() == [
                .snapshot(0..<1), .journal(10..<11), .journal(12..<13), .snapshot(4..<5), .journal(14..<15),
            ])
    }

    @Test("compare agrees with precedes and equality", arguments: 0..<10)
    func compareAgrees(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let a = Self.identifier(random.below(50)) + (random.below(3) == 0 ? "x" : "")
            let b = Self.identifier(random.below(50))
            let order = IdentifierOrder.compare(a, b)
            #expect((order < 0) == IdentifierOrder.precedes(a, b), "\(a) \(b)")
            #expect((order == 0) == (a == b), "\(a) \(b)")
            #expect((order > 0) == IdentifierOrder.precedes(b, a), "\(a) \(b)")
        }
    }
}
