import AppGroupStore
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@Suite("StoreSummary: counts from headers and the journal agree with a full load")
struct StoreSummaryTests {
    struct Tag: Codable, Equatable, Sendable {
        var value: Int
    }

    @Test("A store never written summarises as empty")
    func neverWritten() throws {
        try withTemporaryAppGroup { group in
            let summary = try JournaledStore<Tag>(directory: group.path + "/store").summary()
            #expect(summary.count == 0)
            #expect(summary.meta == nil)
            #expect(summary.generation == "")
        }
    }

    @Test(
        "Across random upserts, deletes (also of unknown identifiers), metadata and compactions (seeded)",
        arguments: [UInt64(17), 1_000_017, 42])
    func agreesWithLoad(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let store = JournaledStore<Tag>(directory: group.path + "/store")
            for step in 0..<300 {
                let identifier = "id-\(random.below(60))"
                switch random.below(10) {
                case 0...4:
                    try store.append(upsert: [StoreFixtures.contact(identifier, given: "G\(step)")])
                case 5...6:
                    try store.append(delete: [identifier])
                case 7:
                    try store.append(
                        upsert: [StoreFixtures.contact(identifier), StoreFixtures.contact("id-\(random.below(60))")],
                        delete: ["id-\(random.below(60))"], meta: Tag(value: step))
                case 8:
                    try store.compact()
                default:
                    try store.append(meta: Tag(value: -step))
                }
                try expectSummaryAgreesWithLoad(store, "seed \(seed) step \(step)")
            }
        }
    }

    @Test("A damaged journal line or a snapshot cut short is reported, not counted around")
    func damageIsReported() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<Tag>(directory: group.path + "/store")
            try store.append(upsert: [StoreFixtures.contact("a"), StoreFixtures.contact("b")])
            try store.compact()
            try store.append(upsert: [StoreFixtures.contact("c")])
            try StoreFixtures.append("{\"seq\":99}\n", to: store.journalPath)
            let journalDamage = StoreFixtures.malformedLocation { _ = try store.summary() }
            #expect(journalDamage?.path == store.journalPath)
            #expect(journalDamage?.line == 3)

            let snapshot = try StoreFixtures.bytes(store.snapshotPath)
            try snapshot.dropLast(5).write(to: URL(fileURLWithPath: store.snapshotPath))
            let snapshotDamage = StoreFixtures.malformedLocation { _ = try store.summary() }
            #expect(snapshotDamage?.path == store.snapshotPath)
        }
    }

    @Test(
        "Entries that carry their live count (the sync engine's appends) summarise from the last line alone, whatever they repeat or delete (seeded)",
        arguments: [UInt64(5), 77, 2024])
    func countedEntriesAgreeWithLoad(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let store = JournaledStore<Tag>(directory: group.path + "/store")
            try store.append(upsert: [StoreFixtures.contact("id-0")])
            var state = try store.load()
            for step in 0..<200 {
                let identifiers = (0..<random.below(4)).map { _ in "id-\(random.below(30))" }
                switch random.below(10) {
                case 0...6:
                    // Upserts (one identifier may come twice) and deletes (of live contacts, unknown
                    // ones, one just upserted, or one twice) in one entry, as a page or batch can.
                    let deletes = (0..<random.below(3)).map { _ in "id-\(random.below(30))" }
                    let written = try store.append(
                        upsert: identifiers.map { StoreFixtures.contact($0, given: "G\(step)") },
                        delete: deletes + deletes.prefix(random.below(2)), meta: Tag(value: step), to: &state,
                        upsertsAreDistinct: Set(identifiers).count == identifiers.count)
                    #expect(written, "seed \(seed) step \(step)")
                case 7:
                    // A writer without the state: its line has no count, so the summary counts in full.
                    try store.append(upsert: identifiers.map { StoreFixtures.contact($0) })
                    state = try store.load()
                case 8:
                    try store.compact()
                    state = try store.load()
                default:
                    _ = try store.append(meta: Tag(value: -step), to: &state)
                }
                try expectSummaryAgreesWithLoad(store, "seed \(seed) step \(step)")
            }
        }
    }

    @Test(
        "A journal whose last line carries the live count is summarised from that line: the lines before it are not read"
    )
    func countedLastLineIsTheAnswer() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<Tag>(directory: group.path + "/store")
            try store.append(upsert: [StoreFixtures.contact("a")])
            var state = try store.load()
            for page in 0..<5 {
                let contacts = (0..<10).map { StoreFixtures.contact("p\(page)-\($0)") }
                #expect(try store.append(upsert: contacts, meta: Tag(value: page), to: &state))
            }
            // Damage the second page's line in place, keeping its length: only a reader of every line sees it.
            var journal = try StoreFixtures.bytes(store.journalPath)
            let lineStarts = [0] + journal.indices.filter { journal[$0] == 0x0A }.map { $0 + 1 }
            journal[lineStarts[3] + 1] = UInt8(ascii: "X")
            try journal.write(to: URL(fileURLWithPath: store.journalPath))

            let summary = try store.summary()
            #expect(summary.count == 51)
            #expect(summary.meta == Tag(value: 4))
            #expect(summary.headSeq == 6)
            let damage = StoreFixtures.malformedLocation { _ = try store.load() }
            #expect(damage?.line == 4, "load() reads every line and reports the damaged one")
        }
    }

    @Test(
        "The app database's adds, updates, deletes and imports write the live count: its summary is the last line's, and agrees with a load (seeded)",
        arguments: [UInt64(3), 300, 9001])
    func appDatabaseWritesCountedEntries(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let database = AppDatabase(appGroup: group.appGroup)
            var known: [String] = []
            for step in 0..<120 {
                switch random.below(10) {
                case 0...3:
                    let given = random.below(2) == 0 ? "" : "given-\(step)"
                    known.append(try database.add(StoreFixtures.contact(given, given: "A\(step)")).identifier)
                case 4...5 where !known.isEmpty:
                    let identifier = known[random.below(known.count)]
                    try database.update(identifier) { $0.familyName = "U\(step)" }
                case 6 where !known.isEmpty:
                    // Up to three contacts in one delete; a repeated identifier is one delete.
                    let removed = (0..<min(known.count, 1 + random.below(3))).map { _ in
                        known.remove(at: random.below(known.count))
                    }
                    try database.delete(removed + removed.prefix(1))
                case 7:
                    // An import mixing new contacts, existing ones and one given twice.
                    var records = (0..<random.below(5)).map { StoreFixtures.contact("imp-\(step)-\($0)") }
                    if let existing = known.randomElement(using: &random) {
                        records.append(StoreFixtures.contact(existing))
                    }
                    if let first = records.first { records.append(first) }
                    try database.upsert(records)
                    for record in records where !known.contains(record.identifier) { known.append(record.identifier) }
                case 8:
                    try database.store.compact()
                default:
                    // An identifier that exists is refused and writes nothing.
                    if let first = known.first { _ = try? database.add(StoreFixtures.contact(first)) }
                }
                let journal = database.store.journalPath
                let lines = access(journal, F_OK) == 0 ? try StoreFixtures.lines(journal).filter { !$0.isEmpty } : []
                if lines.count > 1, let last = lines.last {
                    #expect(
                        last.hasPrefix(#"{"seq":"#) && last.contains(#","count":"#),
                        "seed \(seed) step \(step): \(last)")
                }
                #expect(try database.store.summary().count == known.count, "seed \(seed) step \(step)")
                try expectSummaryAgreesWithLoad(database.store, "seed \(seed) step \(step)")
            }
        }
    }

    @Test("After a line without a count, the app database's appends carry none until a compaction, and still agree")
    func uncountedLineStopsTheChainUntilCompaction() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            try database.store.append(upsert: [StoreFixtures.contact("b"), StoreFixtures.contact("a")])
            try database.add(StoreFixtures.contact("c"))
            #expect(try lastLine(database.store.journalPath)?.contains(#""count""#) == false)
            try expectSummaryAgreesWithLoad(database.store, "after an uncounted line")
            try database.store.compact()
            try database.add(StoreFixtures.contact("d"))
            #expect(try lastLine(database.store.journalPath)?.contains(#","count":4"#) == true)
            try expectSummaryAgreesWithLoad(database.store, "after the compaction")
        }
    }

    private func lastLine(_ path: String) throws -> String? {
        try StoreFixtures.lines(path).last { !$0.isEmpty }
    }

    /// The summary's count, metadata, head and generation are those of a full `load()`.
    private func expectSummaryAgreesWithLoad<Meta>(
        _ store: JournaledStore<Meta>, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let loaded = try store.load()
        let summary = try store.summary()
        #expect(summary.count == loaded.count, "\(context)", sourceLocation: sourceLocation)
        #expect(summary.meta == loaded.meta, "\(context)", sourceLocation: sourceLocation)
        #expect(summary.headSeq == loaded.headSeq, "\(context)", sourceLocation: sourceLocation)
        #expect(summary.generation == loaded.generation, "\(context)", sourceLocation: sourceLocation)
    }
}
