// swift-format-ignore-file
// Seed 001, answer 1, "Visitor". Code as written; the imports are the ones it needs.
import Combine
import Contacts
import Foundation

class Visitor: NSObject, CNChangeHistoryEventVisitor {
    let contactActor = ContactActor.shared
    func visit(_ event: CNChangeHistoryDropEverythingEvent) {
        Task {
            await contactActor.removeAll()
        }
    }
    
    func visit(_ event: CNChangeHistoryAddContactEvent) {
        Task {  @ContactActor in
            await contactActor.insert(event.contact)
        }
    }
    
    func visit(_ event: CNChangeHistoryUpdateContactEvent) {
        Task {
            await contactActor.update(with: event.contact)
        }
    }
    
    func visit(_ event: CNChangeHistoryDeleteContactEvent) {
        Task {
            await contactActor.delete(contactIdentifier: event.contactIdentifier)
        }
    }
}
