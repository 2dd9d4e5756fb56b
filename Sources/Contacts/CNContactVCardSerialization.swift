import AppGroupStore
import ContactsInterop
import Foundation

/// Converts contacts to and from vCard data.
///
/// Mirrors Apple's `CNContactVCardSerialization`, backed by the project's vCard codec
/// (vCard 2.1, 3.0 and 4.0 read; 3.0 written, as Apple writes it). Every value a ``CNContact``
/// holds is written, and read back to an equal contact (labeled-value identifiers aside).
///
/// ## Errors
/// Apple documents only that these methods throw. Here, data that holds a card that cannot be
/// read (no `END:VCARD`, an unreadable `BDAY`, undecodable `PHOTO` data, …) throws
/// ``CNError`` ``CNError/Code/vCardMalformed`` naming the line: a provider never silently loses
/// a contact. Data with no card at all (empty, or only blank lines) is not an error and gives no
/// contacts. Properties the codec does not know are ignored, as Apple's parser ignores them.
open class CNContactVCardSerialization: NSObject {
    /// The keys a contact must have fetched to be written as a vCard: every key here, since
    /// contacts on Linux always hold every value.
    open class func descriptorForRequiredKeys() -> any CNKeyDescriptor {
        CNContactKeyDescriptorList(keys: CNContact.allKeys)
    }

    /// The vCard 3.0 representation of `contacts` (UTF-8, CRLF line endings, folded at 75 octets).
    ///
    /// Each card's `UID` is the contact's ``CNContact/identifier``.
    ///
    /// - Throws: Never here; declared `throws` as Apple's is.
    open class func data(with contacts: [CNContact]) throws -> Data {
        let records = contacts.map { ContactRecord($0, identifier: $0.identifier) }
        return Data(VCard.encode(records, version: .v3).utf8)
    }

    /// The contacts in vCard `data` (UTF-8, or UTF-16 with a BOM; in other files each line is read as
    /// UTF-8, in its `CHARSET`, or as Windows-1252).
    ///
    /// A card's `UID` becomes the contact's ``CNContact/identifier``; a card without one gets an
    /// identifier derived from its content, stable across reads.
    ///
    /// - Throws: ``CNError`` ``CNError/Code/vCardMalformed`` when a card cannot be read.
    open class func contacts(with data: Data) throws -> [CNContact] {
        let result = VCard.decode(data: data)
        if let problem = result.errors.first {
            throw CNError(
                .vCardMalformed,
                userInfo: [
                    NSLocalizedDescriptionKey: "The vCard data is malformed: line \(problem.line): \(problem.message)",
                    "CNErrorLineNumber": problem.line,
                ])
        }
        return result.contacts.map { record in
            let contact = record.makeContact(identifier: record.identifier)
            return contact.copy() as! CNContact
        }
    }
}
