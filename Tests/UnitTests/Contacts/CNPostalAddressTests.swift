import Contacts
import Foundation
import Testing

/// A mutable postal address with every field set.
private func makeAddress() -> CNMutablePostalAddress {
    let address = CNMutablePostalAddress()
    address.street = "1 Infinite Loop"
    address.subLocality = "Downtown"
    address.city = "Cupertino"
    address.subAdministrativeArea = "Santa Clara"
    address.state = "CA"
    address.postalCode = "95014"
    address.country = "United States"
    address.isoCountryCode = "us"
    return address
}

@Suite("CNPostalAddress, CNMutablePostalAddress and CNPostalAddressFormatter")
struct CNPostalAddressTests {
    @Test("A new address is empty")
    func emptyAddress() {
        let address = CNPostalAddress()
        #expect(address.street.isEmpty && address.city.isEmpty && address.isoCountryCode.isEmpty)
    }

    @Test("Setters store every field")
    func setters() {
        let address = makeAddress()
        #expect(address.street == "1 Infinite Loop")
        #expect(address.subLocality == "Downtown")
        #expect(address.city == "Cupertino")
        #expect(address.subAdministrativeArea == "Santa Clara")
        #expect(address.state == "CA")
        #expect(address.postalCode == "95014")
        #expect(address.country == "United States")
        #expect(address.isoCountryCode == "us")
    }

    @Test("copy() is an immutable, equal snapshot")
    func immutableCopy() throws {
        let address = makeAddress()
        let copy = try #require(address.copy() as? CNPostalAddress)
        #expect(!(copy is CNMutablePostalAddress))
        #expect(copy == address)
        address.city = "Sunnyvale"
        #expect(copy.city == "Cupertino")
        #expect(copy != address)
    }

    @Test("mutableCopy() keeps every field and can be changed independently")
    func mutableCopy() throws {
        let frozen = try #require(makeAddress().copy() as? CNPostalAddress)
        let mutable = try #require(frozen.mutableCopy() as? CNMutablePostalAddress)
        #expect(mutable == frozen)
        #expect(mutable.hash == frozen.hash)
        #expect(mutable.street == "1 Infinite Loop")
        #expect(mutable.isoCountryCode == "us")
        mutable.street = "1 Apple Park Way"
        #expect(mutable.street == "1 Apple Park Way")
        #expect(frozen.street == "1 Infinite Loop")
        #expect(mutable != frozen)
    }

    @Test("The mailing address style is street / city state postal code / country")
    func mailingAddress() {
        let text = CNPostalAddressFormatter.string(from: makeAddress(), style: .mailingAddress)
        #expect(text == "1 Infinite Loop\nCupertino CA 95014\nUnited States")
        #expect(CNPostalAddressFormatter().string(from: makeAddress()) == text)
        #expect(CNPostalAddressFormatter().string(for: makeAddress()) == text)
        #expect(CNPostalAddressFormatter().string(for: "not an address") == nil)
    }

    @Test("The mailing address style skips empty fields and empty lines")
    func mailingAddressWithGaps() {
        let address = CNMutablePostalAddress()
        address.city = "Cupertino"
        address.postalCode = "95014"
        #expect(CNPostalAddressFormatter.string(from: address, style: .mailingAddress) == "Cupertino 95014")
        #expect(CNPostalAddressFormatter.string(from: CNPostalAddress(), style: .mailingAddress) == "")
    }
}
