import AppGroupStore
import ContactProvider
import Contacts
import Foundation
import Testing

/// The Apple-shaped surface: names, values and conformances (rules R1, R3, R44–R47).
@Suite("ContactProvider API")
struct ContactProviderAPITests {
    @Test("ContactItemPage and ContactItemSyncAnchor round-trip through JSON and compare both fields (R44)")
    func pageAndAnchorCoding() throws {
        let page = ContactItemPage(generationMarker: Data("gen".utf8), offset: 42)
        let decodedPage = try JSONDecoder().decode(ContactItemPage.self, from: try JSONEncoder().encode(page))
        #expect(decodedPage == page)
        #expect(page != ContactItemPage(generationMarker: Data("gen".utf8), offset: 43))
        #expect(page != ContactItemPage(generationMarker: Data("other".utf8), offset: 42))
        #expect(ContactItemPage.initialPage.generationMarker.isEmpty)
        #expect(ContactItemPage.initialPage.offset == 0)
        let anchor = ContactItemSyncAnchor(generationMarker: Data([0, 255]), offset: 7)
        #expect(try JSONDecoder().decode(ContactItemSyncAnchor.self, from: try JSONEncoder().encode(anchor)) == anchor)
    }

    @Test("identifiers compare and hash by value; rootContainer is a constant (R45)")
    func identifiers() {
        #expect(ContactItem.Identifier("x") == ContactItem.Identifier("x"))
        #expect(ContactItem.Identifier("x").hashValue == ContactItem.Identifier("x").hashValue)
        #expect(ContactItem.Identifier("x") != ContactItem.Identifier("y"))
        #expect(ContactItem.Identifier.rootContainer == ContactItem.Identifier.rootContainer)
        let contact = CNMutableContact()
        contact.givenName = "Ada"
        let same = CNMutableContact()
        same.givenName = "Ada"
        // Value equality of the stand-in contact makes ContactItem equality predictable.
        #expect(ContactItem.contact(contact, .init("a")) != ContactItem.contact(same, .init("b")))
    }

    @Test("all 11 ContactProviderError cases: distinct stable codes, useful messages, NSError bridging (R46)")
    func errors() {
        // The SDK's declaration order (issue 23, item 6), numbered from 0.
        let all: [ContactProviderError] = [
            .extensionNotFound, .itemsLimitReached, .cannotEnumerate, .pageExpired, .changeAnchorExpired,
            .featureNotAvailable, .deniedByUser, .enumerationTimeout, .extensionInvalidated,
            .extensionInvalidateTimeout, .domainNotRegistered,
        ]
        #expect(Set(all).count == 11)
        #expect(all.map(\.errorCode) == Array(0...10))
        #expect(ContactProviderVersionNumber >= 1)
        #expect(!ContactProviderVersionString.isEmpty)
        for error in all {
            #expect(error.errorDescription?.isEmpty == false)
            #expect(error.failureReason?.isEmpty == false)
            let bridged = error as NSError
            #expect(bridged.code == error.errorCode)
            #expect(bridged.domain == ContactProviderError.errorDomain)
        }
    }

    @Test("a manager for any domain but the default one throws domainNotRegistered (R1, R3)")
    func managerDomains() throws {
        #expect(throws: ContactProviderError.domainNotRegistered) {
            _ = try ContactProviderManager(domainIdentifier: "com.example.other")
        }
        #expect(DefaultContactProviderDomain.identifier == "defaultDomain")
        #expect(DefaultContactProviderDomain().identifier == DefaultContactProviderDomain.identifier)
        #expect(DefaultContactProviderDomain().userInfo.isEmpty)
    }

    @Test("a provider's items become records with every field, and records become items again")
    func recordBridge() {
        let contact = CNMutableContact()
        contact.givenName = "Zoë"
        contact.familyName = "Müller"
        contact.organizationName = "Acme"
        contact.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+1 555 0100"))
        ]
        contact.emailAddresses = [.init(label: "Email", value: "zoe@example.com" as NSString)]
        let address = CNMutablePostalAddress()
        address.city = "Zürich"
        contact.postalAddresses = [CNLabeledValue(label: CNLabelHome, value: address)]
        contact.birthday = DateComponents(month: 5, day: 17)
        contact.imageData = Data([1, 2, 3])
        let record = ContactRecord(ContactItem.contact(contact, .init("z")))
        #expect(record.identifier == "z")
        #expect(record.phoneNumbers == [.init(label: CNLabelPhoneNumberMobile, value: "+1 555 0100")])
        #expect(record.emailAddresses.first?.label == "Email")
        #expect(record.postalAddresses.first?.city == "Zürich")
        #expect(record.birthday == "--05-17")
        #expect(ContactRecord(record.makeContact(), identifier: "z") == record)
    }
}
