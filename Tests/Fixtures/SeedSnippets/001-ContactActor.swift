// swift-format-ignore-file
// Seed 001 ("How would I check if a CNContact has changed…", answer 1), "Synchronizing access to
// contacts". Code as written; the answer shows no imports, these are the ones it needs.
import Combine
import Contacts
import Foundation

@globalActor
actor ContactActor {
    static let shared = ContactActor()
    @Published private(set) var contacts: Set<CNContact> = []
    
    func removeAll() {
        contacts.removeAll()
    }
    
    func insert(_ contact: CNContact) {
        let (inserted, _) = contacts.insert(contact)
        if !inserted {
            print("insertion failure")
        }
    }
    
    func update(with contact: CNContact) {
        delete(contactIdentifier: contact.identifier)
        insert(contact)
    }
    
    
    func delete(contactIdentifier: String) {
        let contactToRemove = contacts.first { contact in
            contact.identifier == contactIdentifier
        }
        guard let contactToRemove else { return print("deletion failure") }
        contacts.remove(contactToRemove)
    }
}
