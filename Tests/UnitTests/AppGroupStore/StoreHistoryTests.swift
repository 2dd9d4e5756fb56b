import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("JournaledStore.history(after:in:): each contact's net change since a point, for the change history")
struct StoreHistoryTests {
    @Test(
        "an upsert of a contact absent at the point is an addition, of one present an update; added-then-deleted is left out"
    )
    func classifiesEachContact() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            _ = try database.add(StoreFixtures.contact("in-snapshot"))
            try database.store.compact()  // in the snapshot, not the journal
            _ = try database.add(StoreFixtures.contact("in-journal"))
            _ = try database.add(StoreFixtures.contact("doomed"))
            let point = try database.store.load()

            _ = try database.update("in-snapshot") { $0.givenName = "Changed" }
            _ = try database.add(StoreFixtures.contact("new"))
            try database.delete(["doomed"])
            _ = try database.add(StoreFixtures.contact("fleeting"))
            try database.delete(["fleeting"])
            _ = try database.update("in-journal") { $0.givenName = "Changed too" }

            let history = try #require(try database.store.history(after: point.headSeq, in: point.generation))
            let summary = history.changes.map {
                "\($0.identifier) \($0.record == nil ? "deleted" : "now") \($0.existedBefore)"
            }
            #expect(
                summary == ["in-snapshot now true", "new now false", "in-journal now true", "doomed deleted true"])
            #expect(history.changes.first?.record?.givenName == "Changed")
            let now = try database.store.load()
            #expect(history.headSeq == now.headSeq && history.generation == now.generation)
            let idle = try #require(try database.store.history(after: now.headSeq, in: now.generation))
            #expect(idle.changes.isEmpty)
        }
    }

    @Test(
        "a reset, a compaction past the point or a point in the future answers nil; a compaction after the point does not"
    )
    func expiry() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            _ = try database.add(StoreFixtures.contact("c1"))
            let early = try database.store.load()
            _ = try database.add(StoreFixtures.contact("c2"))
            let late = try database.store.load()
            try database.store.compact()
            #expect(try database.store.history(after: early.headSeq, in: early.generation) == nil)
            let kept = try #require(try database.store.history(after: late.headSeq, in: late.generation))
            #expect(kept.changes.isEmpty)
            #expect(try database.store.history(after: late.headSeq + 3, in: late.generation) == nil)
            try database.reset()
            #expect(try database.store.history(after: late.headSeq, in: late.generation) == nil)
        }
    }
}
