import AppGroupStore
import Foundation
import Testing

@Suite("ContactRecord JSON format")
struct ContactRecordJSONTests {
    private func roundTrip(_ record: ContactRecord) throws -> ContactRecord {
        try JSONDecoder().decode(ContactRecord.self, from: JSONEncoder().encode(record))
    }

    private func object(_ record: ContactRecord) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
    }

    @Test("Every field, including postal addresses, birthday and image data, survives a round trip")
    func fullRoundTrip() throws {
        let record = StoreFixtures.fullContact()
        let decoded = try roundTrip(record)
        #expect(decoded == record)
        #expect(decoded.postalAddresses.first?.isoCountryCode == "gb")
        #expect(decoded.postalAddresses.first?.subAdministrativeArea == "Westminster")
        #expect(decoded.imageData == Data([0, 1, 2, 254, 255]))
        #expect(decoded.phoneNumbers.last?.label == nil)
    }

    @Test("Contacts key names are used on the wire")
    func contactsKeyNames() throws {
        let json = try object(StoreFixtures.fullContact())
        #expect(
            Set(json.keys) == [
                "identifier", "namePrefix", "givenName", "middleName", "familyName", "nameSuffix", "nickname",
                "organizationName", "departmentName", "jobTitle", "phoneNumbers", "emailAddresses",
                "postalAddresses", "urlAddresses", "note", "birthday", "imageData",
            ])
        let phones = try #require(json["phoneNumbers"] as? [[String: Any]])
        #expect(phones.first?["label"] as? String == "_$!<Mobile>!$_")
        #expect(phones.first?["value"] as? String == "+44 20 7946 0000")
        #expect(json["imageData"] as? String == Data([0, 1, 2, 254, 255]).base64EncodedString())
    }

    @Test("A birthday without a year round-trips as --MM-DD", arguments: ["--05-17", "2001-02-28", "0000-01-01"])
    func birthdayRoundTrip(birthday: String) throws {
        var record = ContactRecord(identifier: "b")
        record.birthday = birthday
        let decoded = try roundTrip(record)
        #expect(decoded.birthday == birthday)
        let parsed = try #require(BirthdayFormat.parse(birthday))
        #expect(BirthdayFormat.format(year: parsed.year, month: parsed.month, day: parsed.day) == birthday)
    }

    @Test("A year-less birthday parses with a nil year")
    func yearlessBirthdayParses() throws {
        let parsed = try #require(BirthdayFormat.parse("--05-17"))
        #expect(parsed.year == nil)
        #expect(parsed.month == 5)
        #expect(parsed.day == 17)
    }

    @Test("Empty fields are omitted; only the identifier remains")
    func emptyFieldsOmitted() throws {
        let json = try object(ContactRecord(identifier: "only-id"))
        #expect(json.count == 1)
        #expect(json["identifier"] as? String == "only-id")

        var address = ContactRecord.LabeledPostalAddress(label: nil)
        address.city = "Paris"
        var record = ContactRecord(identifier: "x")
        record.postalAddresses = [address]
        let encoded = try object(record)
        let addresses = try #require(encoded["postalAddresses"] as? [[String: Any]])
        #expect(addresses.first?.keys.sorted() == ["city"])
    }

    @Test("Missing optional keys decode as empty values")
    func sparseDecode() throws {
        let decoded = try JSONDecoder().decode(
            ContactRecord.self,
            from: Data(#"{"identifier":"s","givenName":"Sam","postalAddresses":[{"city":"Oslo"}]}"#.utf8))
        #expect(decoded.givenName == "Sam")
        #expect(decoded.familyName == "")
        #expect(decoded.phoneNumbers.isEmpty)
        #expect(decoded.birthday == nil)
        #expect(decoded.postalAddresses.first?.city == "Oslo")
        #expect(decoded.postalAddresses.first?.label == nil)
    }

    @Test(
        "An invalid birthday is rejected when decoding",
        arguments: ["1990-13-01", "1990-00-10", "1990-01-32", "17-05", "--5-17", "1990/05/17", "", "199-05-17"])
    func invalidBirthdayRejected(birthday: String) throws {
        #expect(BirthdayFormat.parse(birthday) == nil)
        let json = Data(#"{"identifier":"b","birthday":"\#(birthday)"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ContactRecord.self, from: json) }
    }

    @Test("An invalid birthday is refused when encoding, so no unreadable record is ever written")
    func invalidBirthdayNotEncoded() throws {
        var record = ContactRecord(identifier: "b")
        record.birthday = "someday"
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
    }

    @Test("A record without an identifier is rejected")
    func identifierRequired() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ContactRecord.self, from: Data(#"{"givenName":"Nobody"}"#.utf8))
        }
    }

    @Test("Display names use the name parts, else the organization")
    func displayName() {
        #expect(StoreFixtures.fullContact().displayName == "Dr. Ada Augusta Lovelace II")
        var company = ContactRecord(identifier: "c")
        company.organizationName = "Acme"
        #expect(company.displayName == "Acme")
    }

    @Test("Identifier rules refuse empty, over-long and control-character identifiers")
    func identifierRules() throws {
        try IdentifierRules.validate("ok-id/with:punctuation é")
        #expect(throws: StoreError.self) { try IdentifierRules.validate("") }
        #expect(throws: StoreError.self) { try IdentifierRules.validate(String(repeating: "x", count: 257)) }
        try IdentifierRules.validate(String(repeating: "x", count: 256))
        #expect(throws: StoreError.self) { try IdentifierRules.validate("tab\there") }
        #expect(throws: StoreError.self) { try IdentifierRules.validate("new\nline") }
    }
}
