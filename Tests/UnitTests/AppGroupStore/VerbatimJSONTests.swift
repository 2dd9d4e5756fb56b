import Foundation
import Testing

@testable import AppGroupStore

/// A content page's records carry the bytes they were read from (`ContactRecord.verbatim`), so a
/// full sync writes an unchanged contact to the system's journal without encoding it again; any
/// change to the record forgets them.
@Suite("Records carry the bytes a content page read, until anything changes them")
struct VerbatimJSONTests {
    /// Valid JSON our encoder would not write this way: escaped slash and letter, keys out of order.
    static let line =
        #"{"givenName":"Ad\u0061","identifier":"a\/1","#
        + #""phoneNumbers":[{"label":"_$!<Mobile>!$_","value":"+1 555"}],"birthday":"1815-12-10"}"#

    private func decoded(_ text: String) -> ContactRecord? {
        Array(text.utf8).withUnsafeBytes { ContactRecordCodec.fastDecode($0, keeping: VerbatimJSON($0)) }
    }

    private func encoded(_ record: ContactRecord) throws -> String {
        var writer = JSONWriter()
        try ContactRecordCodec.encode(record, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// One change to each stored field of a record.
    static let changes: [(field: String, change: @Sendable (inout ContactRecord) -> Void)] = [
        ("identifier", { $0.identifier = "b" }), ("namePrefix", { $0.namePrefix = "Dr." }),
        ("givenName", { $0.givenName = "Grace" }), ("middleName", { $0.middleName = "M" }),
        ("familyName", { $0.familyName = "Hopper" }), ("nameSuffix", { $0.nameSuffix = "Jr." }),
        ("nickname", { $0.nickname = "G" }), ("organizationName", { $0.organizationName = "Navy" }),
        ("departmentName", { $0.departmentName = "R&D" }), ("jobTitle", { $0.jobTitle = "Admiral" }),
        ("phoneNumbers", { $0.phoneNumbers[0].value = "+1 556" }),
        ("emailAddresses", { $0.emailAddresses.append(.init(label: nil, value: "g@example.com")) }),
        ("postalAddresses", { $0.postalAddresses.append(.init(label: nil)) }),
        ("urlAddresses", { $0.urlAddresses.append(.init(label: nil, value: "https://example.com")) }),
        ("note", { $0.note = "n" }), ("birthday", { $0.birthday = nil }), ("imageData", { $0.imageData = Data([1]) }),
        ("contactType", { $0.contactType = "organization" }), ("previousFamilyName", { $0.previousFamilyName = "P" }),
        ("phoneticGivenName", { $0.phoneticGivenName = "g" }), ("phoneticMiddleName", { $0.phoneticMiddleName = "m" }),
        ("phoneticFamilyName", { $0.phoneticFamilyName = "f" }),
        ("phoneticOrganizationName", { $0.phoneticOrganizationName = "o" }),
        ("nonGregorianBirthday", { $0.nonGregorianBirthday = .init(calendar: "hebrew", year: 5780, month: 3, day: 4) }),
        ("dates", { $0.dates.append(.init(label: nil, value: "2001-04-05")) }),
        ("contactRelations", { $0.contactRelations.append(.init(label: nil, value: "Ada")) }),
        ("socialProfiles", { $0.socialProfiles.append(.init(label: nil)) }),
        (
            "instantMessageAddresses",
            {
                $0.instantMessageAddresses.append(.init(label: nil, username: "g", service: "Skype"))
            }
        ),
    ]

    @Test("an unchanged record is written as exactly the bytes it was read from, which read back as it")
    func unchangedRecordKeepsItsBytes() throws {
        let record = try #require(decoded(Self.line))
        #expect(record.verbatim.bytes != nil)
        let written = try encoded(record)
        #expect(written == Self.line)
        #expect(try ContactRecordCodec.decode(Data(written.utf8)) == record)
        // Copies share them; a record decoded without asking for them has none.
        let copy = record
        #expect(copy.verbatim.bytes != nil)
        #expect(Array(Self.line.utf8).withUnsafeBytes { ContactRecordCodec.fastDecode($0) }?.verbatim.bytes == nil)
    }

    @Test("a change to any field forgets the bytes: the record is encoded afresh, with the change")
    func anyChangeForgetsTheBytes() throws {
        // Every stored field is changed once below: a new field needs a line here.
        let fields = Mirror(reflecting: ContactRecord(identifier: "x").fields).children.compactMap(\.label)
        #expect(Set(fields) == Set(Self.changes.map(\.field)), "fields: \(fields)")
        for (field, change) in Self.changes {
            var record = try #require(decoded(Self.line))
            change(&record)
            #expect(record.verbatim.bytes == nil, "\(field)")
            let written = try encoded(record)
            #expect(written != Self.line, "\(field)")
            #expect(try ContactRecordCodec.decode(Data(written.utf8)) == record, "\(field)")
        }
    }

    @Test("the bytes take no part in equality or hashing")
    func bytesAreNotPartOfTheValue() throws {
        let withBytes = try #require(decoded(Self.line))
        var without = withBytes
        without.verbatim.forget()
        #expect(without.verbatim.bytes == nil)
        #expect(withBytes == without)
        #expect(withBytes.hashValue == without.hashValue)
        #expect(Set([withBytes, without]).count == 1)
    }

    @Test("only a whole object is kept: white space around it, or anything else, is encoded afresh")
    func onlyWholeObjectsAreKept() throws {
        let spaced = try #require(decoded("  " + Self.line + " "))
        #expect(spaced.verbatim.bytes == nil)
        #expect(try encoded(spaced) != Self.line)
    }

    @Test("copies share their fields until one writes; a write changes only the writer")
    func copiesAreIndependentValues() throws {
        let original = try #require(decoded(Self.line))
        for (field, change) in Self.changes {
            var copy = original
            change(&copy)
            #expect(copy != original, "\(field)")
            #expect(original == decoded(Self.line), "\(field): the original changed")
            #expect(original.verbatim.bytes != nil, "\(field): the original forgot its bytes")
        }
    }

    @Test("a record prints its fields, not its storage")
    func printsItsFields() {
        var record = ContactRecord(identifier: "ada")
        record.givenName = "Ada"
        let printed = String(describing: record)
        #expect(
            printed.hasPrefix("ContactRecord(identifier: \"ada\", namePrefix: \"\", givenName: \"Ada\""), "\(printed)")
    }
}
