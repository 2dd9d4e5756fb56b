import AppGroupStore
import ContactProvider
import Contacts
import ContactsInterop
import Foundation
import Testing

/// Every CNContact value a provider can fill beyond the basics travels the whole way: the record
/// (app database and `--json`), vCard 3.0 and 4.0, `CNContactVCardSerialization` and archiving.
@Suite("Porting: the rest of CNContact, round trips")
struct ContactDetailsRoundTripTests {
    /// A contact with every less common value set, including awkward characters.
    static func detailedContact() -> CNMutableContact {
        let contact = CNMutableContact()
        contact.contactType = .organization
        contact.organizationName = "Analytical Engines"
        contact.givenName = "Ada"
        contact.familyName = "Lovelace"
        contact.previousFamilyName = "Byron"
        contact.phoneticGivenName = "AY-duh"
        contact.phoneticMiddleName = "KING"
        contact.phoneticFamilyName = "LUV-layss"
        contact.phoneticOrganizationName = "an-uh-LIT-ik-ul"
        var lunar = DateComponents(calendar: Calendar(identifier: .chinese), era: 78, year: 40, month: 3, day: 15)
        lunar.isLeapMonth = true
        contact.nonGregorianBirthday = lunar
        contact.dates = [
            CNLabeledValue(
                label: CNLabelDateAnniversary, value: DateComponents(year: 2009, month: 8, day: 8) as NSDateComponents),
            CNLabeledValue(label: "First met", value: DateComponents(month: 2, day: 29) as NSDateComponents),
        ]
        contact.contactRelations = [
            CNLabeledValue(label: CNLabelContactRelationManager, value: CNContactRelation(name: "Grace Hopper")),
            CNLabeledValue(
                label: "Mentor", value: CNContactRelation.contactRelation(withName: "Babbage, Charles; Esq.")),
        ]
        contact.socialProfiles = [
            CNLabeledValue(
                label: nil,
                value: CNSocialProfile(
                    urlString: "https://twitter.com/ada", username: "ada", userIdentifier: "1815",
                    service: CNSocialProfileServiceTwitter)),
            CNLabeledValue(
                label: CNLabelWork,
                value: CNSocialProfile(
                    urlString: nil, username: "a \"quoted\", ^caret; name", userIdentifier: nil, service: "My Net")),
        ]
        contact.instantMessageAddresses = [
            CNLabeledValue(
                label: CNLabelHome,
                value: CNInstantMessageAddress(username: "ada.l", service: CNInstantMessageServiceSkype)),
            CNLabeledValue(
                label: "Lab", value: CNInstantMessageAddress(username: "@ada:matrix.org", service: "Matrix")),
        ]
        return contact
    }

    @Test("a contact → record → JSON → record → contact keeps every value")
    func json() throws {
        let contact = Self.detailedContact()
        let record = ContactRecord(contact, identifier: "ada")
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        for key in [
            "\"contactType\":\"organization\"", "previousFamilyName", "phoneticGivenName", "phoneticMiddleName",
            "phoneticFamilyName", "phoneticOrganizationName", "nonGregorianBirthday", "\"calendar\":\"chinese\"",
            "\"dates\"", "contactRelations", "socialProfiles", "instantMessageAddresses",
        ] {
            #expect(json.contains(key), "\(key) missing from \(json)")
        }
        let decoded = try JSONDecoder().decode(ContactRecord.self, from: Data(json.utf8))
        #expect(decoded == record)
        let rebuilt = decoded.makeContact()
        #expect(ContactRecord(rebuilt, identifier: "ada") == record)
        #expect(rebuilt.contactType == .organization)
        #expect(rebuilt.nonGregorianBirthday?.calendar?.identifier == .chinese)
        #expect(rebuilt.nonGregorianBirthday?.isLeapMonth == true)
        #expect(rebuilt.dates.map(\.label) == [CNLabelDateAnniversary, "First met"])
        #expect(rebuilt.dates[1].value.year == NSDateComponentUndefined)
        #expect(rebuilt.contactRelations == contact.contactRelations)
        #expect(rebuilt.socialProfiles == contact.socialProfiles)
        #expect(rebuilt.instantMessageAddresses == contact.instantMessageAddresses)
    }

    @Test("a record with every detail survives vCard 3.0 and 4.0", arguments: VCardVersion.allCases)
    func vCard(version: VCardVersion) throws {
        let record = ContactRecord(Self.detailedContact(), identifier: "ada")
        let text = VCard.encode([record], version: version)
        let result = VCard.decode(text)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.contacts == [record], "\(text)")
    }

    @Test("CNContactVCardSerialization and keyed archiving keep every detail")
    func serializationAndArchiving() throws {
        let contact = Self.detailedContact()
        let decoded = try #require(
            try CNContactVCardSerialization.contacts(with: CNContactVCardSerialization.data(with: [contact])).first)
        #expect(ContactRecord(decoded, identifier: "x") == ContactRecord(contact, identifier: "x"))
        let archive = try NSKeyedArchiver.archivedData(
            withRootObject: contact as CNContact, requiringSecureCoding: true)
        let unarchived = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CNContact.self, from: archive))
        #expect(ContactRecord(unarchived, identifier: "x") == ContactRecord(contact, identifier: "x"))
        #expect(unarchived.socialProfiles.first?.value.userIdentifier == "1815")
    }

    @Test("Apple's older vCard forms: X-AIM, IMPP with a scheme, X-SOCIALPROFILE;type=…, 4.0 KIND:org")
    func appleForms() throws {
        let text = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:Acme\r\nORG:Acme\r\nX-ABShowAs:COMPANY\r\nX-AIM;type=HOME:acme42\r\n\
            IMPP;X-SERVICE-TYPE=Skype;type=WORK:skype:acme.support\r\nIMPP:xmpp:ops@acme.example\r\n\
            X-SOCIALPROFILE;type=linkedin;x-user=acme:https://linkedin.com/company/acme\r\nEND:VCARD\r\n
            """
        let result = VCard.decode(text)
        #expect(result.problems.isEmpty)
        let card = try #require(result.contacts.first)
        #expect(card.contactType == "organization")
        #expect(
            card.instantMessageAddresses == [
                .init(label: CNLabelHome, username: "acme42", service: "AIM"),
                .init(label: CNLabelWork, username: "acme.support", service: "Skype"),
                .init(label: nil, username: "ops@acme.example", service: "Jabber"),
            ])
        #expect(card.socialProfiles.first?.service == "LinkedIn")
        #expect(card.socialProfiles.first?.username == "acme")
    }

    @Test("a provider's item with every detail reaches the system's record unchanged (the bridge)")
    func bridge() {
        let contact = Self.detailedContact()
        let item = ContactItem.contact(contact, ContactItem.Identifier("ada"))
        let record = ContactRecord(item)
        #expect(ContactRecord(record.makeItem()) == record)
        #expect(record.socialProfiles.count == 2 && record.instantMessageAddresses.count == 2)
        #expect(record.contactRelations.count == 2 && record.dates.count == 2)
    }

    @Test("label, service and key constants carry Apple's values")
    func constants() {
        #expect(CNLabelContactRelationManager == "_$!<Manager>!$_")
        #expect(CNLabelContactRelationSister == "_$!<Sister>!$_")
        #expect(CNSocialProfileServiceTwitter == "Twitter")
        #expect(CNInstantMessageServiceSkype == "Skype")
        #expect(CNContactInstantMessageAddressesKey == "instantMessageAddresses")
        #expect(CNContactNonGregorianBirthdayKey == "nonGregorianBirthday")
        #expect(CNContactType.organization.rawValue == 1)
    }
}

/// Values a record cannot hold are refused where they enter, never written half-valid.
@Suite("Porting: invalid less common values")
struct ContactDetailsValidationTests {
    @Test(
        "an unknown calendar or an impossible month is refused by JSON decoding and encoding; vCard warns and skips it")
    func invalidNonGregorianBirthday() throws {
        var record = ContactRecord(identifier: "x")
        record.nonGregorianBirthday = .init(calendar: "martian", month: 3, day: 1)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
        record.nonGregorianBirthday = .init(calendar: "hebrew", month: 14, day: 1)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
        let json = #"{"identifier":"x","nonGregorianBirthday":{"calendar":"martian","month":3,"day":1}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ContactRecord.self, from: Data(json.utf8)) }
        let badType = #"{"identifier":"x","contactType":"robot"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ContactRecord.self, from: Data(badType.utf8)) }

        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:X\r\nX-ALTBDAY;CALSCALE=martian:2000-01-01\r\nEND:VCARD\r\n"
        let result = VCard.decode(card)
        #expect(result.contacts.first?.nonGregorianBirthday == nil)
        #expect(result.warnings.first?.message.contains("martian") == true)
    }
}
