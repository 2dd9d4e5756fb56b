import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("JournaledStore.changes(after:in:limit:): windows, generations and expiry")
struct ChangeWindowTests {
    /// A database with contacts c1…c`count`, one journal entry each.
    private func filled(_ group: TemporaryAppGroup, count: Int) throws -> (AppDatabase, StoreState<NoMetadata>) {
        let database = AppDatabase(appGroup: group.appGroup)
        for index in 1...count { try database.add(StoreFixtures.contact("c\(index)")) }
        return (database, try database.store.load())
    }

    @Test("Returns exactly the entries after a seq, in order, and reports the head")
    func entriesAfterSeq() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 6)
            #expect(state.headSeq == state.baseSeq + 6)
            let window = try #require(
                try StoreFixtures.entries(database.store, after: state.baseSeq + 2, in: state.generation))
            #expect(window.entries.map(\.seq) == Array((state.baseSeq + 3)...(state.baseSeq + 6)))
            #expect(window.entries.flatMap { $0.upsert ?? [] }.map(\.identifier) == ["c3", "c4", "c5", "c6"])
            #expect(window.headSeq == state.headSeq)
            #expect(window.generation == state.generation)
        }
    }

    @Test("An idle query (after the head, journal unchanged) is answered from the last read; any write is seen")
    func idleQueryThenWrite() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 3)
            // The same store object answers repeatedly, as a long-lived provider's does.
            let store = database.store
            let idle = try #require(try StoreFixtures.entries(store, after: state.headSeq, in: state.generation))
            #expect(idle.entries.isEmpty && idle.headSeq == state.headSeq)
            let again = try #require(try StoreFixtures.entries(store, after: state.headSeq, in: state.generation))
            #expect(again.entries.isEmpty && again.headSeq == state.headSeq)
            // Another writer (another store object, as another process) appends: the next query sees it.
            try AppDatabase(appGroup: group.appGroup).add(StoreFixtures.contact("c4"))
            let after = try #require(try StoreFixtures.entries(store, after: state.headSeq, in: state.generation))
            #expect(after.entries.flatMap { $0.upsert ?? [] }.map(\.identifier) == ["c4"])
            #expect(after.headSeq == state.headSeq + 1)
            // A seq beyond the head is still refused, not answered from the cache.
            switch try store.changes(after: state.headSeq + 5, in: state.generation, limit: 10) {
            case .expired: break
            case .changes: Issue.record("a seq beyond the head must expire")
            }
        }
    }

    @Test("Respects the limit and still reports the head")
    func limit() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 10)
            let first = try #require(
                try StoreFixtures.entries(database.store, after: state.baseSeq, in: state.generation, limit: 4))
            #expect(first.entries.map(\.seq) == Array((state.baseSeq + 1)...(state.baseSeq + 4)))
            #expect(first.headSeq == state.headSeq)
            let next = try #require(
                try StoreFixtures.entries(
                    database.store, after: first.entries.last!.seq, in: state.generation, limit: 4))
            #expect(next.entries.map(\.seq) == Array((state.baseSeq + 5)...(state.baseSeq + 8)))
            let last = try #require(
                try StoreFixtures.entries(database.store, after: next.entries.last!.seq, in: state.generation, limit: 4)
            )
            #expect(last.entries.map(\.seq) == [state.baseSeq + 9, state.baseSeq + 10])
        }
    }

    @Test("At the head there are no changes; beyond the head the anchor is expired")
    func atAndBeyondHead() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 3)
            let atHead = try #require(
                try StoreFixtures.entries(database.store, after: state.headSeq, in: state.generation))
            #expect(atHead.entries.isEmpty)
            #expect(atHead.headSeq == state.headSeq)
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: state.headSeq + 1, in: state.generation, limit: 10)))
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: state.headSeq + 100, in: state.generation, limit: 10)))
        }
    }

    @Test("An unknown generation is expired")
    func unknownGeneration() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 2)
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: state.baseSeq, in: UUID().uuidString, limit: 10)))
            #expect(StoreFixtures.isExpired(try database.store.changes(after: state.baseSeq, in: "", limit: 10)))
        }
    }

    @Test("An empty store that was never written answers expired")
    func neverWritten() throws {
        try withTemporaryAppGroup { group throws in
            let store = AppDatabase(appGroup: group.appGroup).store
            #expect(StoreFixtures.isExpired(try store.changes(after: 0, in: "anything", limit: 10)))
        }
    }

    @Test("After reset the old generation is expired, even at its head")
    func resetExpiresOldGeneration() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 3)
            try database.reset()
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: state.headSeq, in: state.generation, limit: 10)))
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: state.baseSeq, in: state.generation, limit: 10)))
            let fresh = try database.store.load()
            #expect(fresh.previousGeneration == nil)
            try database.add(StoreFixtures.contact("new"))
            let window = try #require(
                try StoreFixtures.entries(database.store, after: fresh.baseSeq, in: fresh.generation))
            #expect(window.entries.flatMap { $0.upsert ?? [] }.map(\.identifier) == ["new"])
            // Sequence numbers keep counting across the reset.
            #expect(window.entries.first?.seq == state.headSeq + 1)
        }
    }

    @Test(
        "After compaction an anchor at the old head stays valid, and one behind it is answered from the folded journal")
    func compactionKeepsHeadAnchors() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 5)
            try database.store.compact()
            let compacted = try database.store.load()
            #expect(compacted.generation != state.generation)
            #expect(compacted.previousGeneration == state.generation)
            #expect(compacted.baseSeq == state.headSeq)
            #expect(compacted.contacts.map(\.identifier) == ["c1", "c2", "c3", "c4", "c5"])

            try database.add(StoreFixtures.contact("after"))
            let fromOld = try #require(
                try StoreFixtures.entries(database.store, after: state.headSeq, in: state.generation))
            #expect(fromOld.entries.flatMap { $0.upsert ?? [] }.map(\.identifier) == ["after"])
            #expect(fromOld.generation == compacted.generation)
            #expect(fromOld.headSeq == state.headSeq + 1)

            // Behind the old head: answered from the journal the compaction folded (issue 44, item 3).
            let behind = try #require(
                try StoreFixtures.entries(database.store, after: state.headSeq - 2, in: state.generation))
            #expect(behind.entries.flatMap { $0.upsert ?? [] }.map(\.identifier) == ["c4", "c5", "after"])
            #expect(behind.entries.map(\.seq) == Array((state.headSeq - 1)...(state.headSeq + 1)))
            #expect(behind.generation == compacted.generation && behind.headSeq == state.headSeq + 1)
            let all = try #require(
                try StoreFixtures.entries(database.store, after: state.baseSeq, in: state.generation))
            #expect(all.entries.count == 6)
            // The new generation is queried normally.
            let fromNew = try #require(
                try StoreFixtures.entries(database.store, after: compacted.baseSeq, in: compacted.generation))
            #expect(fromNew.entries.count == 1)
        }
    }

    @Test("A second compaction forgets the generation before the previous one")
    func secondCompaction() throws {
        try withTemporaryAppGroup { group in
            let (database, first) = try filled(group, count: 2)
            try database.store.compact()
            let second = try database.store.load()
            try database.add(StoreFixtures.contact("x"))
            try database.store.compact()
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: first.headSeq, in: first.generation, limit: 10)))
            let window = try #require(
                try StoreFixtures.entries(database.store, after: second.headSeq + 1, in: second.generation))
            #expect(window.entries.isEmpty)
        }
    }

    @Test("An anchor behind a compaction is answered in windows across the folded and the new journal, with the limit")
    func foldedWindows() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 6)
            try database.store.compact()
            let compacted = try database.store.load()
            for index in 7...9 { try database.add(StoreFixtures.contact("c\(index)")) }
            // Walk from the first entry, three at a time, continuing from each window's last seq in
            // the generation it answered in (as ProviderDataSource's markers do).
            var seq = state.baseSeq
            var generation = state.generation
            var seen: [String] = []
            while true {
                let window = try #require(
                    try StoreFixtures.entries(database.store, after: seq, in: generation, limit: 3),
                    "after \(seq) in \(generation)")
                #expect(window.entries.count <= 3)
                seen += window.entries.flatMap { $0.upsert ?? [] }.map(\.identifier)
                guard let last = window.entries.last?.seq else { break }
                #expect(last == seq + window.entries.count, "contiguous from \(seq)")
                seq = last
                generation = window.generation
            }
            #expect(seen == (1...9).map { "c\($0)" })
            #expect(generation == compacted.generation && seq == compacted.baseSeq + 3)
        }
    }

    @Test("Without the folded journal (not kept, lost, or another generation's) an anchor behind a compaction expires")
    func foldedJournalMissing() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 4)
            // A store that keeps no history (the system store's kind) expires it, as before.
            let plain = JournaledStore<NoMetadata>(directory: database.store.directory)
            try plain.compact()
            #expect(
                StoreFixtures.isExpired(try plain.changes(after: state.headSeq - 1, in: state.generation, limit: 9)))
            #expect(!FileManager.default.fileExists(atPath: database.store.previousJournalPath))
            // Kept, then lost (a power cut before the directory was synced, a hand): expired, not partial.
            let second = try database.store.load()
            try database.add(StoreFixtures.contact("c5"))
            try database.store.compact()
            #expect(
                try StoreFixtures.entries(database.store, after: second.headSeq, in: second.generation)?.entries.count
                    == 1)
            try FileManager.default.removeItem(atPath: database.store.previousJournalPath)
            #expect(
                StoreFixtures.isExpired(
                    try database.store.changes(after: second.headSeq, in: second.generation, limit: 9)))
        }
    }

    @Test("After a reset the folded journal answers no anchor: every old anchor expires")
    func resetForgetsFoldedJournal() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 4)
            try database.store.compact()
            #expect(FileManager.default.fileExists(atPath: database.store.previousJournalPath))
            try database.replaceAll(with: [StoreFixtures.contact("new")])
            let reset = try database.store.load()
            for generation in [state.generation, reset.generation] {
                #expect(
                    StoreFixtures.isExpired(
                        try database.store.changes(after: state.headSeq - 2, in: generation, limit: 9)),
                    "\(generation)")
            }
        }
    }

    @Test("compactIfNeeded leaves a small journal alone")
    func compactIfNeededThreshold() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 3)
            #expect(try database.compactIfNeeded() == false)
            #expect(try database.store.load().generation == state.generation)
            #expect(try database.store.compactIfNeeded(minimumJournalBytes: 0) == true)
            let after = try database.store.load()
            #expect(after.generation != state.generation)
            #expect(after.contacts == state.contacts)
        }
    }

    @Test("Deletions and metadata-free entries come back as written")
    func deletionEntries() throws {
        try withTemporaryAppGroup { group in
            let (database, state) = try filled(group, count: 2)
            try database.delete(["c1"])
            let window = try #require(
                try StoreFixtures.entries(database.store, after: state.headSeq, in: state.generation))
            #expect(window.entries.count == 1)
            #expect(window.entries.first?.delete == ["c1"])
            #expect(window.entries.first?.upsert == nil)
        }
    }
}
