import Contacts
import Foundation
import Testing

/// A mutable contact with the given name parts.
private func contact(
    prefix: String = "", given: String = "", middle: String = "", family: String = "",
    suffix: String = "", organization: String = ""
) -> CNMutableContact {
    let contact = CNMutableContact()
    contact.namePrefix = prefix
    contact.givenName = given
    contact.middleName = middle
    contact.familyName = family
    contact.nameSuffix = suffix
    contact.organizationName = organization
    return contact
}

@Suite("CNContactFormatter")
struct CNContactFormatterTests {
    @Test("Full name joins every part in order with single spaces")
    func allParts() {
        let person = contact(
            prefix: "Dr.", given: "Ada", middle: "King", family: "Lovelace", suffix: "PhD",
            organization: "Engines")
        #expect(CNContactFormatter.string(from: person, style: .fullName) == "Dr. Ada King Lovelace PhD")
    }

    @Test("Full name skips missing parts without doubling spaces")
    func missingParts() {
        let adaLovelace = contact(given: "Ada", family: "Lovelace")
        #expect(CNContactFormatter.string(from: adaLovelace, style: .fullName) == "Ada Lovelace")
        #expect(CNContactFormatter.string(from: contact(given: "Ada"), style: .fullName) == "Ada")
        #expect(CNContactFormatter.string(from: contact(family: "Lovelace"), style: .fullName) == "Lovelace")
        #expect(CNContactFormatter.string(from: contact(prefix: "Dr.", family: "Who"), style: .fullName) == "Dr. Who")
    }

    @Test("Full name falls back to the organization name when there is no name")
    func organizationFallback() {
        #expect(CNContactFormatter.string(from: contact(organization: "Acme"), style: .fullName) == "Acme")
    }

    @Test("An organization contact shows its organization name")
    func organizationContact() {
        let company = contact(given: "Wile", family: "Coyote", organization: "Acme")
        company.contactType = .organization
        #expect(CNContactFormatter.string(from: company, style: .fullName) == "Acme")
    }

    @Test("Nothing to show gives nil")
    func emptyIsNil() {
        #expect(CNContactFormatter.string(from: CNContact(), style: .fullName) == nil)
        #expect(CNContactFormatter.string(from: CNContact(), style: .phoneticFullName) == nil)
        #expect(CNContactFormatter().string(from: CNContact()) == nil)
    }

    @Test("Phonetic full name joins the phonetic parts")
    func phoneticFullName() {
        let person = CNMutableContact()
        person.givenName = "Ada"
        person.phoneticGivenName = "AY-da"
        person.phoneticFamilyName = "LUV-lace"
        #expect(CNContactFormatter.string(from: person, style: .phoneticFullName) == "AY-da LUV-lace")
    }

    @Test("An instance formats in its style; string(for:) accepts only contacts")
    func instanceFormatting() {
        let formatter = CNContactFormatter()
        #expect(formatter.style == .fullName)
        let person = contact(given: "Ada", family: "Lovelace")
        person.phoneticGivenName = "AY-da"
        #expect(formatter.string(from: person) == "Ada Lovelace")
        #expect(formatter.string(for: person) == "Ada Lovelace")
        #expect(formatter.string(for: 42) == nil)
        formatter.style = .phoneticFullName
        #expect(formatter.string(from: person) == "AY-da")
    }

    @Test("Name order is given name first, delimiter a space")
    func nameOrderAndDelimiter() {
        #expect(CNContactFormatter.nameOrder(for: CNContact()) == .givenNameFirst)
        #expect(CNContactFormatter.delimiter(for: CNContact()) == " ")
    }

    @Test("Enum raw values match Apple's")
    func rawValues() {
        #expect(CNContactFormatterStyle.fullName.rawValue == 0)
        #expect(CNContactFormatterStyle.phoneticFullName.rawValue == 1)
        #expect(CNContactDisplayNameOrder.givenNameFirst.rawValue == 1)
        #expect(CNContactType.organization.rawValue == 1)
    }
}
