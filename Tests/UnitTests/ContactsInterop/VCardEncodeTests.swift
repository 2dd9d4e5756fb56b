import AppGroupStore
import Contacts
import ContactsInterop
import Foundation
import Testing

@Suite("vCard encoding")
struct InteropVCardEncodeTests {
    static func sample() -> ContactRecord {
        var record = ContactRecord(identifier: "id-1")
        record.givenName = "John"
        record.familyName = "Appleseed"
        record.organizationName = "Apple, Inc."
        record.departmentName = "R&D"
        record.phoneNumbers = [
            .init(label: CNLabelPhoneNumberMobile, value: "+1 408 555 0101"),
            .init(label: CNLabelPhoneNumberHomeFax, value: "+1 408 555 0102"),
            .init(label: "Studio", value: "+1 408 555 0103"),
            .init(label: nil, value: "+1 408 555 0104"),
        ]
        record.emailAddresses = [.init(label: CNLabelWork, value: "j@apple.com")]
        record.urlAddresses = [.init(label: CNLabelURLAddressHomePage, value: "https://apple.com")]
        var address = ContactRecord.LabeledPostalAddress(label: CNLabelHome)
        address.street = "1 Infinite Loop"
        address.city = "Cupertino"
        address.isoCountryCode = "us"
        record.postalAddresses = [address]
        record.note = "a;b,c\\d\ne"
        return record
    }

    /// The content lines of `text` after unfolding, for assertions about properties.
    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test("3.0 output: CRLF lines, TYPE parameters, X-ABLabel groups, escaped text")
    func version3() {
        let text = VCard.encode([Self.sample()], version: .v3)
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"))
        #expect(text.hasSuffix("END:VCARD\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = Self.unfolded(text)
        #expect(lines.contains("UID:id-1"))
        #expect(lines.contains("N:Appleseed;John;;;"))
        #expect(lines.contains("FN:John Appleseed"))
        #expect(lines.contains("ORG:Apple\\, Inc.;R&D"))
        #expect(lines.contains("TEL;TYPE=CELL:+1 408 555 0101"))
        #expect(lines.contains("TEL;TYPE=HOME,FAX:+1 408 555 0102"))
        #expect(lines.contains("item1.TEL:+1 408 555 0103"))
        #expect(lines.contains("item1.X-ABLabel:Studio"))
        #expect(lines.contains("TEL:+1 408 555 0104"))
        #expect(lines.contains("EMAIL;TYPE=INTERNET,WORK:j@apple.com"))
        #expect(lines.contains("item2.ADR;TYPE=HOME:;;1 Infinite Loop;Cupertino;;;"))
        #expect(lines.contains("item2.X-ABADR:us"))
        #expect(lines.contains("URL;TYPE=HOMEPAGE:https://apple.com"))
        #expect(lines.contains("NOTE:a\\;b\\,c\\\\d\\ne"))
    }

    @Test("4.0 output: lower-case types, no INTERNET type")
    func version4() {
        let lines = Self.unfolded(VCard.encode([Self.sample()], version: .v4))
        #expect(lines.contains("VERSION:4.0"))
        #expect(lines.contains("TEL;TYPE=home,fax:+1 408 555 0102"))
        #expect(lines.contains("EMAIL;TYPE=work:j@apple.com"))
    }

    @Test("FN is the organization when there is no name")
    func formattedNameFromOrganization() {
        var record = ContactRecord(identifier: "org")
        record.organizationName = "Blue Bottle"
        let lines = Self.unfolded(VCard.encode([record], version: .v3))
        #expect(lines.contains("FN:Blue Bottle"))
        #expect(lines.contains("N:;;;;"))
        #expect(VCard.decode(VCard.encode([record], version: .v4)).contacts == [record])
    }

    @Test("Birthdays: a missing year is Apple's X-APPLE-OMIT-YEAR=1604:1604-05-17 in 3.0 and --0517 in 4.0")
    func birthdays() {
        var record = ContactRecord(identifier: "b")
        record.birthday = "--05-17"
        let v3 = Self.unfolded(VCard.encode([record], version: .v3))
        #expect(v3.contains("BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17"))
        #expect(!v3.contains("BDAY:--05-17"))
        #expect(VCard.decode(VCard.encode([record], version: .v3)).contacts.first?.birthday == "--05-17")
        #expect(Self.unfolded(VCard.encode([record], version: .v4)).contains("BDAY:--0517"))
        record.birthday = "1990-05-17"
        #expect(Self.unfolded(VCard.encode([record], version: .v3)).contains("BDAY:1990-05-17"))
        #expect(Self.unfolded(VCard.encode([record], version: .v4)).contains("BDAY:19900517"))
    }

    @Test("Photos: 3.0 ENCODING=b with TYPE, 4.0 data URI")
    func photos() {
        var record = ContactRecord(identifier: "p")
        record.imageData = VCardFixtures.photoBytes
        let base64 = VCardFixtures.photoBytes.base64EncodedString()
        #expect(Self.unfolded(VCard.encode([record], version: .v3)).contains("PHOTO;ENCODING=b;TYPE=JPEG:" + base64))
        #expect(Self.unfolded(VCard.encode([record], version: .v4)).contains("PHOTO:data:image/jpeg;base64," + base64))
    }

    @Test("Lines are folded at 75 octets without splitting a UTF-8 sequence", arguments: VCardVersion.allCases)
    func folding(version: VCardVersion) throws {
        var record = ContactRecord(identifier: "fold")
        record.note = String(repeating: "é😀漢a", count: 60)
        record.imageData = VCardFixtures.photoBytes
        let text = VCard.encode([record], version: version)
        #expect(!text.contains("\u{FFFD}"))
        // Split the bytes at CRLF: every physical line must be valid UTF-8 on its own.
        var physical: [[UInt8]] = [[]]
        for byte in text.utf8 {
            if byte == 0x0A, physical[physical.count - 1].last == 0x0D {
                physical[physical.count - 1].removeLast()
                physical.append([])
            } else {
                physical[physical.count - 1].append(byte)
            }
        }
        #expect(physical.removeLast().isEmpty)
        #expect(physical.count > 20)
        for line in physical {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil)
        }
        let longest = physical.map(\.count).max() ?? 0
        #expect(longest >= 72)
        #expect(VCard.decode(text).contacts.first?.note == record.note)
    }

    @Test("Empty labels are written as no label and read back as nil")
    func emptyLabel() {
        var record = ContactRecord(identifier: "e")
        record.phoneNumbers = [.init(label: "", value: "123")]
        let text = VCard.encode([record], version: .v3)
        #expect(Self.unfolded(text).contains("TEL:123"))
        #expect(VCard.decode(text).contacts.first?.phoneNumbers == [.init(label: nil, value: "123")])
    }

    @Test("Several contacts make several cards")
    func severalCards() {
        let records = (1...3).map { ContactRecord(identifier: "c\($0)") }
        let text = VCard.encode(records, version: .v4)
        #expect(text.components(separatedBy: "BEGIN:VCARD\r\n").count == 4)
        #expect(VCard.decode(text).contacts == records)
        #expect(VCard.encode([], version: .v3) == "")
    }
}
