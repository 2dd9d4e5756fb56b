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
                let loaded = try store.load()
                let summary = try store.summary()
                #expect(summary.count == loaded.count, "seed \(seed) step \(step)")
                #expect(summary.meta == loaded.meta, "seed \(seed) step \(step)")
                #expect(summary.headSeq == loaded.headSeq, "seed \(seed) step \(step)")
                #expect(summary.generation == loaded.generation, "seed \(seed) step \(step)")
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
}
