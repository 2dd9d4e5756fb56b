import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// The system engine's state holds only the set of live identifiers; a content page's append puts
/// them in first and writes the resulting count in the entry (one hash per contact).
@Suite("Members-only commits: the count written is the state's")
struct MembersOnlyCommitTests {
    struct Tag: Codable, Equatable, Sendable {
        var value: Int
    }

    private static func membersOnlyStore(_ group: TemporaryAppGroup) -> JournaledStore<Tag> {
        JournaledStore<Tag>(directory: group.path + "/store", retainsContacts: false, keepsOrder: false)
    }

    @Test("Distinct pages appended to a members-only state: the state, the summary and a load agree")
    func distinctPagesAgree() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var state = try store.load()
            // Pages in order, one repeating contacts an earlier page delivered (an update, not a new one).
            for page in 0..<6 {
                let first = page == 3 ? 0 : page * 10
                let contacts = (first..<(first + 10)).map { StoreFixtures.contact(String(format: "id-%03d", $0)) }
                #expect(
                    try store.append(upsert: contacts, meta: Tag(value: page), to: &state, upsertsAreDistinct: true))
            }
            #expect(state.count == 50)
            #expect(state.headSeq == 6)
            #expect(state.meta == Tag(value: 5))
            #expect(try store.summary().count == 50)
            #expect(try store.load().count == 50)
            #expect(try Self.membersOnlyStore(group).load().contains("id-049"))
        }
    }

    @Test("insertMembers returns only the identifiers the state lacked, and removeMembers takes them back")
    func insertAndTakeBack() throws {
        try withTemporaryAppGroup { group in
            let store = Self.membersOnlyStore(group)
            try store.reset()
            var state = try store.load()
            #expect(state.membersOnly)
            #expect(try store.append(upsert: [StoreFixtures.contact("a")], to: &state, upsertsAreDistinct: true))
            let inserted = state.insertMembers(["a", "b", "c"].map { StoreFixtures.contact($0) })
            #expect(inserted == ["b", "c"])
            #expect(state.count == 3)
            state.removeMembers(inserted)
            #expect(state.count == 1 && state.contains("a") && !state.contains("b"))
        }
    }
}
