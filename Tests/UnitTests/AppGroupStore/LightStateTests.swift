import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("Journaled store: identifier-only states")
struct LightStateTests {
    @Test("a store that keeps only identifiers in memory still compacts every value to disk")
    func compactionKeepsValues() throws {
        try withTemporaryAppGroup { group in
            let light = JournaledStore<NoMetadata>(directory: group.path + "/store", retainsContacts: false)
            try light.reset()
            var state = try light.load()
            var record = ContactRecord(identifier: "a")
            record.givenName = "Ada"
            record.note = "kept"
            #expect(try light.append(upsert: [record], to: &state))
            #expect(state.contains("a"))
            #expect(state.records["a"] == nil, "the in-memory state holds the identifier only")
            try light.compact()
            let full = JournaledStore<NoMetadata>(directory: group.path + "/store")
            #expect(try full.load().records["a"] == record)
            #expect(try light.load().contains("a"))
        }
    }
}

@Suite("Journaled store: appending to a state the caller holds")
struct AppendToStateTests {
    @Test("an append after another writer's append reads that entry first and keeps seqs contiguous")
    func otherWriterInBetween() throws {
        try withTemporaryAppGroup { group in
            let mine = JournaledStore<NoMetadata>(directory: group.path + "/store")
            try mine.reset()
            var state = try mine.load()
            #expect(try mine.append(upsert: [ContactRecord(identifier: "a")], to: &state))
            // Another process (another store object) appends behind this state's back.
            try JournaledStore<NoMetadata>(directory: group.path + "/store").append(upsert: [
                ContactRecord(identifier: "b")
            ])
            #expect(try mine.append(upsert: [ContactRecord(identifier: "c")], to: &state))
            #expect(state.headSeq == state.baseSeq + 3)
            #expect(state.contains("b"), "the other writer's entry was read before appending")
            let reloaded = try mine.load()
            #expect(reloaded.headSeq == state.headSeq)
            #expect(Set(reloaded.records.keys) == ["a", "b", "c"])
        }
    }

    @Test("a torn tail written after the state was read is cut off before the next append")
    func tornTailAfterLoad() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<NoMetadata>(directory: group.path + "/store")
            try store.reset()
            var state = try store.load()
            #expect(try store.append(upsert: [ContactRecord(identifier: "a")], to: &state))
            let handle = try #require(FileHandle(forWritingAtPath: store.journalPath))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"seq":99,"upsert":[{"identi"#.utf8))
            try handle.close()
            #expect(try store.append(upsert: [ContactRecord(identifier: "b")], to: &state))
            let reloaded = try store.load()
            #expect(Set(reloaded.records.keys) == ["a", "b"])
            #expect(reloaded.headSeq == state.headSeq)
        }
    }
}
