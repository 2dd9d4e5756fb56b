import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// Issue 23, item 8: app code reads what the user sees with Apple's own API. `CNContactStore` over the
/// simulated device holds what the syncs delivered (one container per domain), not what the app's
/// database says, through the real `contacts-host` and the demo provider.
@Suite("Porting: CNContactStore reads what a sync delivered")
struct ContactStoreTests {
    let keys = [CNContactGivenNameKey, CNContactFamilyNameKey, CNContactEmailAddressesKey].map {
        $0 as any CNKeyDescriptor
    }

    @Test(
        "containers, predicates, a fetch request; an edit shows only after the sync; provided contacts read-only, other predicates refused"
    )
    func readsTheSimulatedDevice() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            #expect(
                try store.containers(matching: nil).map(\.identifier) == [store.defaultContainerIdentifier()],
                "nothing was synced yet: only the device's own container")
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(
                [
                    "add", "--id", "ada", "--given-name", "Ada", "--family-name", "Lovelace", "--email",
                    "ada@example.com",
                ],
                in: group)
            try HostRunner.process.succeed(
                ["add", "--id", "alan", "--given-name", "Alan", "--family-name", "Turing"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)

            let containers = try store.containers(matching: nil)
            #expect(containers.map(\.identifier) == ["CNContainer.local", "ContactProvider.defaultDomain"])
            #expect(containers.map(\.type) == [.local, .unassigned])
            let container = try #require(containers.last)
            let inContainer = try store.unifiedContacts(
                matching: CNContact.predicateForContactsInContainer(withIdentifier: container.identifier),
                keysToFetch: keys)
            #expect(inContainer.map(\.givenName).sorted() == ["Ada", "Alan"])
            let byName = try store.unifiedContacts(
                matching: CNContact.predicateForContacts(matchingName: "love"), keysToFetch: keys)
            #expect(byName.map(\.familyName) == ["Lovelace"])
            let byEmail = try store.unifiedContacts(
                matching: CNContact.predicateForContacts(matchingEmailAddress: "ADA@example.com"), keysToFetch: keys)
            #expect(byEmail.map(\.givenName) == ["Ada"])
            let ada = try store.unifiedContact(withIdentifier: container.identifier + "/ada", keysToFetch: keys)
            #expect(ada.familyName == "Lovelace")
            #expect(
                try store.containers(
                    matching: CNContainer.predicateForContainerOfContact(withIdentifier: ada.identifier)
                ).map(\.identifier) == [container.identifier])
            var enumerated: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
                enumerated.append(contact.givenName)
            }
            #expect(enumerated.sorted() == ["Ada", "Alan"])

            // The user sees what the system received: the app's edit shows once it is synced.
            try HostRunner.process.succeed(["update", "ada", "--family-name", "King"], in: group)
            #expect(
                try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: keys).familyName == "Lovelace")
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            #expect(try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: keys).familyName == "King")

            #expect(throws: CNError.self) {
                try store.unifiedContact(withIdentifier: container.identifier + "/nobody", keysToFetch: keys)
            }
            let save = CNSaveRequest()
            save.add(CNMutableContact(), toContainerWithIdentifier: container.identifier)
            #expect { try store.execute(save) } throws: { ($0 as? CNError)?.code == .parentContainerNotWritable }
            let update = CNSaveRequest()
            update.update(ada.mutableCopy() as! CNMutableContact)
            #expect { try store.execute(update) } throws: { ($0 as? CNError)?.code == .recordNotWritable }
            #expect { try store.unifiedContacts(matching: NSPredicate(value: true), keysToFetch: keys) } throws: {
                ($0 as? CNError)?.code == .predicateInvalid
            }
            #expect(CNContactStore.authorizationStatus(for: .contacts) == .authorized)
        }
    }
}
