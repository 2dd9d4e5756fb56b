import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// The device's own contacts through Apple's API, in process: the local container is the default
/// one, listed first; `execute(_:)` adds, updates and deletes; provided contacts are read-only; the
/// authorization setting decides what an app may read.
@Suite("CNContactStore: the device's own contacts and authorization")
struct CNContactStoreSavingTests {
    let keys = [CNContactGivenNameKey, CNContactFamilyNameKey].map { $0 as any CNKeyDescriptor }

    private func contact(_ given: String, _ family: String) -> CNMutableContact {
        let contact = CNMutableContact()
        contact.givenName = given
        contact.familyName = family
        return contact
    }

    @Test("the default container is listed, local, and takes adds (nil or its identifier), updates and deletes")
    func savesToTheLocalContainer() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let containers = try store.containers(matching: nil)
            #expect(containers.map(\.identifier) == [store.defaultContainerIdentifier()])
            #expect(containers.first?.type == .local)
            let ada = contact("Ada", "Lovelace")
            let alan = contact("Alan", "Turing")
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            save.add(alan, toContainerWithIdentifier: store.defaultContainerIdentifier())
            try store.execute(save)

            let all = try store.unifiedContacts(
                matching: CNContact.predicateForContactsInContainer(withIdentifier: store.defaultContainerIdentifier()),
                keysToFetch: keys)
            #expect(all.map(\.givenName).sorted() == ["Ada", "Alan"])
            #expect(
                try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: keys).familyName == "Lovelace")
            #expect(
                try store.containers(
                    matching: CNContainer.predicateForContainerOfContact(withIdentifier: ada.identifier)
                )
                .map(\.identifier) == [store.defaultContainerIdentifier()])

            let edited =
                try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: keys).mutableCopy()
                as! CNMutableContact
            edited.familyName = "King"
            let update = CNSaveRequest()
            update.update(edited)
            update.delete(alan)
            try store.execute(update)
            var seen: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
                seen.append(contact.givenName + " " + contact.familyName)
            }
            #expect(seen == ["Ada King"])
        }
    }

    @Test("adding twice, updating or deleting an unknown contact: Apple's codes, and nothing saved")
    func refusesAsApplesStoreDoes() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let ada = contact("Ada", "Lovelace")
            let add = CNSaveRequest()
            add.add(ada, toContainerWithIdentifier: nil)
            try store.execute(add)
            #expect { try store.execute(add) } throws: { ($0 as? CNError)?.code == .insertedRecordAlreadyExists }
            let update = CNSaveRequest()
            update.update(contact("No", "Body"))
            #expect { try store.execute(update) } throws: { ($0 as? CNError)?.code == .recordDoesNotExist }
            let elsewhere = CNSaveRequest()
            elsewhere.add(contact("Cy", "Nowhere"), toContainerWithIdentifier: "no-such-container")
            #expect { try store.execute(elsewhere) } throws: { ($0 as? CNError)?.code == .parentRecordDoesNotExist }
            var seen: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
                seen.append(contact.givenName)
            }
            #expect(seen == ["Ada"], "the refused requests saved nothing")
        }
    }

    @Test("a provided contact is read-only: update and delete throw recordNotWritable")
    func providedContactsAreReadOnly() {
        withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let provided = CNMutableContact(identifier: "ContactProvider.defaultDomain/ada")
            let update = CNSaveRequest()
            update.update(provided)
            #expect { try store.execute(update) } throws: {
                ($0 as? CNError)?.code == .recordNotWritable
                    && ($0 as? CNError)?.errorDescription?.contains("read-only") == true
            }
            let delete = CNSaveRequest()
            delete.delete(provided)
            #expect { try store.execute(delete) } throws: { ($0 as? CNError)?.code == .recordNotWritable }
        }
    }

    @Test("denied and not determined: reads and saves throw authorizationDenied with Apple's text; requestAccess asks")
    func deniedAndNotDetermined() async throws {
        try await withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            try DeviceAuthorization(status: .denied).write(in: group.appGroup)
            #expect { try store.containers(matching: nil) } throws: {
                ($0 as? CNError)?.code == .authorizationDenied && ($0 as? CNError)?.errorDescription == "Access Denied"
            }
            #expect { try store.execute(CNSaveRequest()) } throws: { ($0 as? CNError)?.code == .authorizationDenied }
            await #expect(throws: CNError.self) { try await store.requestAccess(for: .contacts) }

            try DeviceAuthorization(status: .notDetermined, answer: .allow).write(in: group.appGroup)
            #expect(throws: CNError.self) { try store.containers(matching: nil) }
            #expect(try await store.requestAccess(for: .contacts))
            #expect(try DeviceAuthorization.read(in: group.appGroup).status == .authorized)
            #expect(try store.containers(matching: nil).count == 1)
        }
    }

    @Test("limited: only the granted contacts are read, and a contact the app adds joins them")
    func limitedAccess() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let ada = contact("Ada", "Lovelace")
            let alan = contact("Alan", "Turing")
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            save.add(alan, toContainerWithIdentifier: nil)
            try store.execute(save)
            try DeviceAuthorization(status: .limited, granted: [ada.identifier]).write(in: group.appGroup)
            var seen: [String] = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
                seen.append(contact.givenName)
            }
            #expect(seen == ["Ada"])
            let update = CNSaveRequest()
            update.update(alan)
            #expect { try store.execute(update) } throws: { ($0 as? CNError)?.code == .recordDoesNotExist }
            let grace = contact("Grace", "Hopper")
            let add = CNSaveRequest()
            add.add(grace, toContainerWithIdentifier: nil)
            try store.execute(add)
            seen = []
            try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
                seen.append(contact.givenName)
            }
            #expect(seen == ["Ada", "Grace"])
        }
    }
}
