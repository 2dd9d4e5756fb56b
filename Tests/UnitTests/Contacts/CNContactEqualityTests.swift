import Contacts
import Foundation
import Testing

/// Stands in for the provider framework's `ContactItem`: an enum holding a
/// `CNMutableContact`, with synthesized Equatable and Hashable.
private enum ContactItemLike: Hashable {
    case contact(CNMutableContact)
}

@Suite("CNContact value equality")
struct CNContactEqualityTests {
    @Test("Contacts with the same values and identifier are equal and hash alike")
    func sameValuesAreEqual() throws {
        let first = ContactsModelFixtures.fullContact()
        let second = try #require(first.mutableCopy() as? CNMutableContact)
        #expect(first !== second)
        #expect(first == second)
        #expect(first.hash == second.hash)
        #expect(ContactItemLike.contact(first) == ContactItemLike.contact(second))
        #expect(ContactItemLike.contact(first).hashValue == ContactItemLike.contact(second).hashValue)
        #expect(Set([ContactItemLike.contact(first), .contact(second)]).count == 1)
    }

    @Test("A mutable and an immutable contact with the same values are equal")
    func mutabilityDoesNotMatter() throws {
        let mutable = ContactsModelFixtures.fullContact()
        let immutable = try #require(mutable.copy() as? CNContact)
        #expect(immutable.isEqual(mutable))
        #expect(mutable.isEqual(immutable))
        #expect(immutable.hash == mutable.hash)
    }

    @Test("Contacts differing in one value are not equal")
    func differentValuesAreNotEqual() throws {
        let first = ContactsModelFixtures.fullContact()
        let second = try #require(first.mutableCopy() as? CNMutableContact)
        second.note = "Different"
        #expect(first != second)
        #expect(ContactItemLike.contact(first) != ContactItemLike.contact(second))

        let third = try #require(first.mutableCopy() as? CNMutableContact)
        third.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+1 555 0199"))
        ]
        #expect(first != third)
    }

    @Test("Contacts with the same values but different identifiers are not equal")
    func identifierMatters() {
        let first = CNMutableContact()
        let second = CNMutableContact()
        first.givenName = "Ada"
        second.givenName = "Ada"
        #expect(first != second)
    }

    @Test("Independently built labeled values with equal labels and values make equal contacts")
    func labeledValueIdentifiersDoNotMatter() {
        let first = CNMutableContact(identifier: "same")
        let second = CNMutableContact(identifier: "same")
        first.emailAddresses = [CNLabeledValue(label: CNLabelHome, value: "a@b.c" as NSString)]
        second.emailAddresses = [CNLabeledValue(label: CNLabelHome, value: "a@b.c" as NSString)]
        #expect(first == second)
        #expect(first.hash == second.hash)
    }

    @Test("A contact is not equal to something that is not a contact")
    func notEqualToOtherTypes() {
        let contact = CNContact()
        #expect(!contact.isEqual(nil))
        #expect(!contact.isEqual("not a contact" as NSString))
    }
}
