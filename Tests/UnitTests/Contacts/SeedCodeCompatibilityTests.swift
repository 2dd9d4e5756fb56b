import Contacts
import Foundation
import Testing

/// Lines taken from real iOS provider code must compile and behave as on iOS.
@Suite("iOS seed code compiles against the Contacts stand-in")
struct SeedCodeCompatibilityTests {
    @Test("emailAddresses = [.init(label:value: … as NSString)] holds the values")
    func emailAddressLine() throws {
        let emailAddress = "ada@example.com"
        let contact = CNMutableContact()
        contact.emailAddresses = [.init(label: "Email", value: emailAddress as NSString)]
        let entry = try #require(contact.emailAddresses.first)
        #expect(contact.emailAddresses.count == 1)
        #expect(entry.label == "Email")
        #expect(entry.value as String == "ada@example.com")
    }

    @Test("phoneNumbers = [.init(label:value: CNPhoneNumber(stringValue:))] holds the values")
    func phoneNumberLine() throws {
        let phoneNumber = "+1 555 0100"
        let contact = CNMutableContact()
        contact.phoneNumbers = [.init(label: "Mobile", value: CNPhoneNumber(stringValue: phoneNumber))]
        let entry = try #require(contact.phoneNumbers.first)
        #expect(contact.phoneNumbers.count == 1)
        #expect(entry.label == "Mobile")
        #expect(entry.value.stringValue == "+1 555 0100")
    }

    @Test("CNLabeledValue(label: CNLabelWork, value: … as NSString) infers NSString")
    func labeledValueWithConstant() {
        let labeled = CNLabeledValue(label: CNLabelWork, value: "a@b.c" as NSString)
        let typed: CNLabeledValue<NSString> = labeled
        #expect(typed.label == "_$!<Work>!$_")
        #expect(typed.value.isEqual(to: "a@b.c"))
        #expect(CNLabeledValue<NSString>.localizedString(forLabel: typed.label ?? "") == "work")
    }
}
