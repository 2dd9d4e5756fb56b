import Contacts
import Foundation
import Testing

/// Archives an object with secure coding and unarchives it as `type`.
private func roundTrip<T: NSObject & NSSecureCoding>(_ object: T, as type: T.Type) throws -> T? {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    return try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data)
}

@Suite("NSSecureCoding of the Contacts value types")
struct CNContactCodingTests {
    @Test("The classes declare secure-coding support")
    func supportsSecureCoding() {
        #expect(CNContact.supportsSecureCoding)
        #expect(CNPhoneNumber.supportsSecureCoding)
        #expect(CNPostalAddress.supportsSecureCoding)
    }

    @Test("A contact survives a keyed-archive round trip with every value and identifier")
    func contactRoundTrip() throws {
        let contact = ContactsModelFixtures.fullContact()
        let decoded = try #require(try roundTrip(contact as CNContact, as: CNContact.self))
        #expect(decoded.identifier == contact.identifier)
        #expect(decoded.givenName == "Ada")
        #expect(decoded.birthday == contact.birthday)
        #expect(decoded.imageData == Data([1, 2, 3]))
        #expect(decoded.phoneNumbers.first?.identifier == contact.phoneNumbers.first?.identifier)
        #expect(decoded.postalAddresses.first?.value.city == "London")
        #expect(decoded.dates.first?.value.year == 1835)
        #expect(decoded.isEqual(contact))
    }

    @Test("A phone number and a postal address survive a keyed-archive round trip")
    func valueRoundTrips() throws {
        let number = CNPhoneNumber(stringValue: "+1 555 0100")
        #expect(try roundTrip(number, as: CNPhoneNumber.self) == number)

        let address = CNMutablePostalAddress()
        address.street = "1 Main St"
        address.isoCountryCode = "us"
        let decoded = try #require(try roundTrip(address as CNPostalAddress, as: CNPostalAddress.self))
        #expect(decoded == address)
        #expect(decoded.street == "1 Main St")
    }

    @Test("A contact formatter keeps its style through a keyed-archive round trip")
    func formatterRoundTrip() throws {
        let formatter = CNContactFormatter()
        formatter.style = .phoneticFullName
        let decoded = try #require(try roundTrip(formatter, as: CNContactFormatter.self))
        #expect(decoded.style == .phoneticFullName)
    }
}
