import AppGroupStore
import Contacts
import Foundation

extension ContactRecord {
    /// The record of a provider's item.
    public init(_ item: ContactItem) {
        switch item {
        case .contact(let contact, let identifier):
            self.init(contact, identifier: identifier.value)
        }
    }

    /// The provider item for this record.
    public func makeItem() -> ContactItem {
        .contact(makeContact(), ContactItem.Identifier(identifier))
    }
}
