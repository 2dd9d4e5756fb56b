import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// Groups through Apple's API, in process: `CNGroup` and `CNMutableGroup` in the local container,
/// membership with `CNSaveRequest`, the group predicates.
@Suite("CNContactStore: groups and membership in the local container")
struct CNContactStoreGroupsTests {
    let keys = [CNContactGivenNameKey as any CNKeyDescriptor]

    private func contact(_ given: String) -> CNMutableContact {
        let contact = CNMutableContact()
        contact.givenName = given
        return contact
    }

    private func members(_ group: CNGroup, _ store: CNContactStore) throws -> [String] {
        try store.unifiedContacts(
            matching: CNContact.predicateForContactsInGroup(withIdentifier: group.identifier), keysToFetch: keys
        ).map(\.givenName).sorted()
    }

    @Test("a group and its members saved in one request; renamed; a member removed; deleted with its members kept")
    func groupLifecycle() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            #expect(try store.groups(matching: nil).isEmpty)
            let family = CNMutableGroup()
            family.name = "Family"
            let ada = contact("Ada")
            let alan = contact("Alan")
            let save = CNSaveRequest()
            save.add(family, toContainerWithIdentifier: nil)
            save.add(ada, toContainerWithIdentifier: nil)
            save.add(alan, toContainerWithIdentifier: nil)
            save.addMember(ada, to: family)
            save.addMember(alan, to: family)
            try store.execute(save)

            let stored = try store.groups(matching: nil)
            #expect(stored.map(\.name) == ["Family"])
            #expect(stored.first?.identifier == family.identifier)
            #expect(try members(family, store) == ["Ada", "Alan"])
            #expect(
                try store.groups(matching: CNGroup.predicateForGroups(withIdentifiers: [family.identifier])).count == 1)
            #expect(
                try store.groups(
                    matching: CNGroup.predicateForGroupsInContainer(withIdentifier: store.defaultContainerIdentifier())
                ).count == 1)
            #expect(
                try store.groups(matching: CNGroup.predicateForGroupsInContainer(withIdentifier: "ContactProvider.x"))
                    .isEmpty)

            let renamed = try #require(stored.first?.mutableCopy() as? CNMutableGroup)
            renamed.name = "Close family"
            let edit = CNSaveRequest()
            edit.update(renamed)
            edit.removeMember(alan, from: renamed)
            try store.execute(edit)
            #expect(try store.groups(matching: nil).map(\.name) == ["Close family"])
            #expect(try members(family, store) == ["Ada"])

            let remove = CNSaveRequest()
            remove.delete(renamed)
            try store.execute(remove)
            #expect(try store.groups(matching: nil).isEmpty)
            #expect(
                try store.unifiedContacts(
                    matching: CNContact.predicateForContacts(matchingName: "a"), keysToFetch: keys
                ).count == 2)
        }
    }

    @Test("membership of an unknown contact or group, a provided contact, or a contact predicate: refused")
    func refusals() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let friends = CNMutableGroup()
            friends.name = "Friends"
            let create = CNSaveRequest()
            create.add(friends, toContainerWithIdentifier: nil)
            try store.execute(create)
            let stranger = CNSaveRequest()
            stranger.addMember(contact("Nobody"), to: friends)
            #expect { try store.execute(stranger) } throws: { ($0 as? CNError)?.code == .recordDoesNotExist }
            let provided = CNSaveRequest()
            provided.addMember(CNMutableContact(identifier: "ContactProvider.defaultDomain/ada"), to: friends)
            #expect { try store.execute(provided) } throws: { ($0 as? CNError)?.code == .containmentScope }
            let twice = CNSaveRequest()
            twice.add(friends, toContainerWithIdentifier: nil)
            #expect { try store.execute(twice) } throws: { ($0 as? CNError)?.code == .insertedRecordAlreadyExists }
            #expect { try store.groups(matching: CNContact.predicateForContacts(matchingName: "a")) } throws: {
                ($0 as? CNError)?.code == .predicateInvalid
            }
            #expect(try store.groups(matching: nil).map(\.name) == ["Friends"], "the refused requests saved nothing")
        }
    }
}
