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

    @Test(
        "an excluded author's entries are known: alone they give nothing; with another author's, the change is judged from that author's first"
    )
    func excludedAuthors() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<NoMetadata>(directory: group.path + "/authored")
            func save(_ author: String?, upsert: [String] = [], delete: [String] = [], given: String = "Given") throws {
                _ = try store.write {
                    try $0.append(
                        upsert: upsert.map { StoreFixtures.contact($0, given: given) }, delete: delete, author: author)
                }
            }
            try save(nil, upsert: ["known", "also-known"])
            let point = try store.load()
            try save("App", upsert: ["mine"])
            try save("Widget", upsert: ["mine"], given: "Widget's")  // an update: the app knows its own add
            try save("Widget", upsert: ["theirs"])
            try save("App", upsert: ["theirs"], given: "App's")  // still the widget's addition, as it is now
            try save("App", upsert: ["private"])  // only the app's: nothing
            try save("App", upsert: ["known"], given: "App's")  // only the app's: nothing
            try save("Widget", upsert: ["gone"])
            try save("App", delete: ["gone"])  // added and deleted, as the app knows: nothing
            try save(nil, delete: ["also-known"])  // no author: never excluded

            let history = try #require(
                try store.history(after: point.headSeq, in: point.generation, excludingAuthors: ["App"]))
            let summary = history.changes.map {
                "\($0.identifier) \($0.record?.givenName ?? "deleted") \($0.existedBefore)"
            }
            #expect(summary == ["mine Widget's true", "theirs App's false", "also-known deleted true"])
            // Excluding nobody (or an author who saved nothing) is the whole history.
            let everyone = try #require(
                try store.history(after: point.headSeq, in: point.generation, excludingAuthors: ["Nobody"]))
            #expect(
                everyone.changes.map(\.identifier) == ["mine", "theirs", "private", "known", "also-known"])
            let unfiltered = try #require(try store.history(after: point.headSeq, in: point.generation))
            #expect(unfiltered.changes == everyone.changes)
        }
    }

    @Test("the author is written in its change's own journal line; lines without one (older journals) read as nobody's")
    func authorInTheSameLine() throws {
        try withTemporaryAppGroup { group in
            let directory = group.path + "/authored"
            let store = JournaledStore<NoMetadata>(directory: directory)
            _ = try store.write { try $0.append(upsert: [StoreFixtures.contact("old")]) }
            _ = try store.write { try $0.append(upsert: [StoreFixtures.contact("new")], author: "App") }
            let lines = try String(contentsOfFile: directory + "/journal.jsonl", encoding: .utf8)
                .split(separator: "\n")
            #expect(lines.count == 3)
            #expect(!lines[1].contains("author"))
            #expect(lines[2].hasPrefix(#"{"seq":2,"author":"App","upsert":[{"#))
            let history = try #require(
                try store.history(after: 0, in: try store.load().generation, excludingAuthors: ["App"]))
            #expect(history.changes.map(\.identifier) == ["old"])
        }
    }

    @Test(
        "read from the point on: existence at the point comes from the journal's last mention before it, else the snapshot"
    )
    func existenceAtThePointFromTheJournalBeforeIt() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<DeviceMeta>(directory: group.path + "/device-like")
            func save(upsert: [String] = [], delete: [String] = [], groups: [String]) throws {
                _ = try store.write {
                    try $0.append(
                        upsert: upsert.map { StoreFixtures.contact($0) }, delete: delete,
                        meta: DeviceMeta(groups: groups.map { DeviceGroup(identifier: $0, name: $0) }))
                }
            }
            try save(upsert: ["snap", "gone-then-back"], groups: ["g1"])
            try store.compact()  // both in the snapshot
            try save(upsert: ["journal"], groups: ["g1", "g2"])
            try save(delete: ["gone-then-back"], groups: ["g1", "g2"])
            try save(upsert: ["a/slash"], groups: ["g1", "g2", "g3"])
            for index in 0..<50 { try save(upsert: ["filler-\(index)"], groups: ["g1", "g2", "g3"]) }
            let point = try store.load()
            try save(upsert: ["snap", "journal", "gone-then-back", "a/slash", "fresh"], groups: ["g3"])

            let history = try #require(try store.history(after: point.headSeq, in: point.generation))
            let summary = history.changes.map { "\($0.identifier) \($0.existedBefore)" }
            #expect(summary == ["snap true", "journal true", "gone-then-back false", "a/slash true", "fresh false"])
            #expect(history.metaBefore?.groups.map(\.identifier) == ["g1", "g2", "g3"])
            #expect(history.metaNow?.groups.map(\.identifier) == ["g3"])
        }
    }
}
