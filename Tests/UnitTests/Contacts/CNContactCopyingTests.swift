import Contacts
import Foundation
import Testing

@Suite("CNContact and CNMutableContact: creation, setters and copies")
struct CNContactCopyingTests {
    @Test("A new contact is an empty person with a fresh UUID identifier")
    func newContactDefaults() {
        let first = CNContact()
        let second = CNContact()
        #expect(UUID(uuidString: first.identifier) != nil)
        #expect(first.identifier != second.identifier)
        #expect(first.contactType == .person)
        #expect(first.givenName.isEmpty && first.familyName.isEmpty && first.organizationName.isEmpty)
        #expect(first.birthday == nil)
        #expect(first.imageData == nil && !first.imageDataAvailable)
        #expect(first.phoneNumbers.isEmpty && first.emailAddresses.isEmpty && first.dates.isEmpty)
    }

    @Test("The package initializer sets the identifier")
    func packageIdentifierInit() {
        #expect(CNMutableContact(identifier: "fixed-id").identifier == "fixed-id")
        #expect(CNContact(identifier: "other").identifier == "other")
    }

    @Test("Setters store every value")
    func settersStoreValues() throws {
        let contact = ContactsModelFixtures.fullContact()
        #expect(contact.namePrefix == "Dr.")
        #expect(contact.givenName == "Ada")
        #expect(contact.middleName == "King")
        #expect(contact.familyName == "Lovelace")
        #expect(contact.previousFamilyName == "Byron")
        #expect(contact.nameSuffix == "PhD")
        #expect(contact.nickname == "Countess")
        #expect(contact.organizationName == "Analytical Engines")
        #expect(contact.departmentName == "Research")
        #expect(contact.jobTitle == "Programmer")
        #expect(contact.phoneticGivenName == "AY-da")
        #expect(contact.phoneticMiddleName == "KING")
        #expect(contact.phoneticFamilyName == "LUV-lace")
        #expect(contact.note == "First programmer")
        #expect(contact.birthday?.year == 1815)
        #expect(contact.birthday?.day == 10)
        #expect(contact.imageData == Data([1, 2, 3]))
        #expect(contact.thumbnailImageData == Data([1, 2, 3]))
        #expect(contact.imageDataAvailable)
        #expect(contact.phoneNumbers.first?.value.stringValue == "+44 20 7946 0000")
        #expect(contact.emailAddresses.first?.value == "ada@example.com" as NSString)
        #expect(contact.postalAddresses.first?.value.city == "London")
        #expect(contact.urlAddresses.first?.label == CNLabelURLAddressHomePage)
        #expect(try #require(contact.dates.first).value.month == 7)

        contact.contactType = .organization
        #expect(contact.contactType == .organization)
        contact.imageData = nil
        #expect(!contact.imageDataAvailable)
        #expect(contact.thumbnailImageData == nil)
    }

    @Test("copy() of a mutable contact is an immutable CNContact with the same values and identifier")
    func immutableCopy() throws {
        let contact = ContactsModelFixtures.fullContact()
        let copy = try #require(contact.copy() as? CNContact)
        #expect(!(copy is CNMutableContact))
        #expect(copy.identifier == contact.identifier)
        #expect(copy.givenName == "Ada")
        #expect(copy.familyName == "Lovelace")
        #expect(copy.phoneNumbers == contact.phoneNumbers)
        #expect(copy.postalAddresses == contact.postalAddresses)
        #expect(copy.birthday == contact.birthday)
        #expect(copy.isEqual(contact))
    }

    @Test("mutableCopy() is a CNMutableContact with the same values and identifier, independent of the original")
    func mutableCopy() throws {
        let original = ContactsModelFixtures.fullContact()
        let immutable = try #require(original.copy() as? CNContact)
        let mutable = try #require(immutable.mutableCopy() as? CNMutableContact)
        #expect(mutable.identifier == original.identifier)
        #expect(mutable.isEqual(original))

        mutable.givenName = "Augusta"
        mutable.phoneNumbers = []
        #expect(mutable.givenName == "Augusta")
        #expect(immutable.givenName == "Ada")
        #expect(immutable.phoneNumbers.count == 1)
        #expect(original.givenName == "Ada")
        #expect(!mutable.isEqual(immutable))
    }

    @Test("Changing the original after copy() leaves the copy untouched")
    func copyIsASnapshot() throws {
        let contact = ContactsModelFixtures.fullContact()
        let copy = try #require(contact.copy() as? CNContact)
        contact.familyName = "King"
        contact.emailAddresses.append(CNLabeledValue(label: CNLabelWork, value: "ada@work.example" as NSString))
        #expect(copy.familyName == "Lovelace")
        #expect(copy.emailAddresses.count == 1)
    }
}
