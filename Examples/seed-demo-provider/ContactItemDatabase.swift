// A faithful port of the seed demo's `ContactItemDatabase` (0xWDG/ContactProviderDemo).
//
// Changes from the iOS original, all outside the extension's own file:
// - The contacts come from this package's app database (what `contacts-host add` writes)
//   instead of `ContactItems.json`; like the original, the whole database is read once, in `init`.
// The original's known problems are kept on purpose (it is the naive baseline and a known-bad
// provider for the conformance kit): everything is re-sent on every signal, markers are constant
// placeholders, deletions never propagate, and the data goes stale while the process lives.

import AppGroupStore
import ContactProvider
import Contacts
import Foundation

class ContactItemDatabase: ObservableObject {
    // The items that will be synchronised to the Contact Provider extension.
    @Published public var contactItems: [ContactItem] = []

    // The url of our shared database. (App Group)
    private let fileURL = FileManager.default.containerURL(
        // App Group identifier.
        forSecurityApplicationGroupIdentifier: "group.nl.wesleydegroot.contactproviderdemo"
    )

    init() {
        guard let fileURL else {
            print("Could not find file URL; is the App Group identifier correct?")
            return
        }
        // Load the whole database.
        let records = (try? AppDatabase(appGroup: AppGroup(path: fileURL.path)).all()) ?? []
        for record in records {
            // Create a new contact.
            let contact: CNMutableContact = .init()
            contact.givenName = record.givenName
            contact.familyName = record.familyName
            if let phoneNumber = record.phoneNumbers.first?.value {
                contact.phoneNumbers = [
                    .init(
                        label: "Mobile",
                        value: CNPhoneNumber(stringValue: phoneNumber)
                    )
                ]
            }
            if let emailAddress = record.emailAddresses.first?.value {
                contact.emailAddresses = [
                    .init(
                        label: "Email",
                        value: emailAddress as NSString
                    )
                ]
            }
            let identifier: ContactItem.Identifier = .init(record.identifier)
            contactItems.append(
                .contact(contact, identifier)
            )
        }
    }
}
