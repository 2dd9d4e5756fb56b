import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// The provider's engine keeps the system store's live identifiers in memory. A compaction it runs
/// itself changes no contact, so the engine's state is moved onto the new files rather than read
/// again: the first sync after a compaction of 100,000 contacts spent 220 ms reloading them.
@Suite("Compaction keeps a members-only state: moved onto the new generation, not loaded again")
struct CompactionRebaseTests {
    struct Tag: Codable, Equatable, Sendable {
        var value: Int
    }

    private static func membersOnlyStore(_ group: TemporaryAppGroup) -> JournaledStore<Tag> {
        JournaledStore<Tag>(directory: group.path + "/store", retainsContacts: false, keepsOrder: false)
    }

    private static func contacts(_ range: Range<Int>) -> [ContactRecord] {
        range.map { StoreFixtures.contact(String(format: "id-%05d", $0)) }
    }

    @Test("After its own compaction the state equals a fresh load, and refreshing it reads no snapshot line")
    func rebasedStateMatchesFreshLoad() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var state = try store.load()
            for page in 0..<4 {
                #expect(
                    try store.append(
                        upsert: Self.contacts((page * 100)..<(page * 100 + 100)), meta: Tag(value: page), to: &state,
                        upsertsAreDistinct: true))
            }
            let before = state.generation
            let loads = store.fullLoads
            #expect(try store.compactIfNeeded(keeping: &state, minimumJournalBytes: 0))
            #expect(store.fullLoads == loads, "the compaction itself loads nothing into the state")
            let fresh = try Self.membersOnlyStore(group).load()
            #expect(state.generation != before)
            #expect(state.generation == fresh.generation)
            #expect(state.previousGeneration == before && fresh.previousGeneration == before)
            #expect(state.baseSeq == fresh.baseSeq && state.headSeq == fresh.headSeq)
            #expect(state.journalInode == fresh.journalInode && state.journalOffset == fresh.journalOffset)
            #expect(state.count == 400 && state.meta == Tag(value: 3))

            // Nothing new: a refresh keeps the state without reading the store whole.
            try store.refresh(&state)
            #expect(store.fullLoads == loads)
            // A page after the compaction is applied to the moved state as to any other.
            #expect(
                try store.append(
                    upsert: Self.contacts(400..<410), delete: ["id-00000"], meta: Tag(value: 4), to: &state,
                    upsertsAreDistinct: false))
            let other = Self.membersOnlyStore(group)
            var reader = try other.load()
            #expect(reader.count == 409)
            try store.refresh(&state)
            #expect(store.fullLoads == loads)
            #expect(state.count == 409 && state.contains("id-00409") && !state.contains("id-00000"))
            try other.refresh(&reader)
            #expect(reader.headSeq == state.headSeq)
        }
    }

    @Test("A state that had not read the whole folded journal is left alone and loaded again when refreshed")
    func staleStateIsLoadedAgain() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var stale = try store.load()
            // Another writer's lines, which `stale` has not read.
            let writer = Self.membersOnlyStore(group)
            var writerState = try writer.load()
            #expect(
                try writer.append(
                    upsert: Self.contacts(0..<200), meta: Tag(value: 1), to: &writerState, upsertsAreDistinct: true))
            let generation = stale.generation
            #expect(try store.compactIfNeeded(keeping: &stale, minimumJournalBytes: 0))
            #expect(stale.generation == generation, "not moved: it had not read what was folded")
            let loads = store.fullLoads
            try store.refresh(&stale)
            #expect(store.fullLoads == loads + 1)
            #expect(stale.count == 200)
            #expect(stale.generation == (try writer.load()).generation)
        }
    }
}
