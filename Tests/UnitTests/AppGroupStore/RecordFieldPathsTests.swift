import AppGroupStore
import Contacts
import ContactsInterop
import Foundation
import Testing

/// Issue 29, item 1: every field of a contact, through every path that carries contacts. A field
/// added to `ContactRecord` and forgotten in the store's fast codec, the `CNContact` bridge or the
/// vCard writer or reader fails here, by name, unless the path's table below says it does not
/// carry it and why.
@Suite("Every field of a contact, through every path that carries one")
struct RecordFieldPathsTests {
    struct Path: CustomTestStringConvertible, Sendable {
        var name: String
        /// Fields this path does not carry, each with the reason.
        var notCarried: [String: String]
        var roundTrip: @Sendable (ContactRecord) throws -> ContactRecord
        var testDescription: String { name }
    }

    static let paths: [Path] = [
        Path(name: "Foundation JSON", notCarried: [:]) { record in
            try JSONDecoder().decode(ContactRecord.self, from: try JSONEncoder().encode(record))
        },
        Path(name: "the store's fast codec", notCarried: [:]) { record in
            let data = try ContactRecordCodec.encode(record)
            return try #require(data.withUnsafeBytes { ContactRecordCodec.decodeIfPlain($0) })
        },
        Path(name: "the CNContact bridge, field by field", notCarried: [:]) { record in
            ContactRecord(fieldsOf: record.makeContact(), identifier: record.identifier)
        },
        Path(name: "vCard 3.0", notCarried: [:]) { record in
            try #require(VCard.decode(VCard.encode([record], version: .v3)).contacts.first)
        },
        Path(name: "vCard 4.0", notCarried: [:]) { record in
            try #require(VCard.decode(VCard.encode([record], version: .v4)).contacts.first)
        },
    ]

    /// The contacts that set every field between them: a person with every field, and an
    /// organisation (its `contactType` is written only when it is not a person).
    static var everyField: [ContactRecord] {
        var organization = StoreFixtures.everyField("every-org")
        organization.contactType = "organization"
        return [StoreFixtures.everyField(), organization]
    }

    /// Each field's value as canonical JSON, by the key Foundation writes.
    static func fields(_ record: ContactRecord) throws -> [String: String] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(record)) as? [String: Any])
        var fields: [String: String] = [:]
        for (key, value) in object {
            let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
            fields[key] = String(decoding: data, as: UTF8.self)
        }
        return fields
    }

    @Test("each field arrives as written, or the path says it does not carry it", arguments: paths)
    func carried(path: Path) throws {
        for record in Self.everyField {
            let written = try Self.fields(record)
            let read = try Self.fields(try path.roundTrip(record))
            for key in written.keys.sorted() where path.notCarried[key] == nil {
                #expect(
                    read[key] == written[key],
                    "\(path.name) loses or changes \(key): wrote \(written[key]!), read \(read[key] ?? "nothing")")
            }
            for key in read.keys where written[key] == nil {
                Issue.record("\(path.name) adds \(key) (\(read[key]!)), which the record did not have")
            }
        }
        // Every stored property is set by one of the contacts, so none escapes the check.
        let keys = Set(try Self.everyField.flatMap { try Self.fields($0).keys })
        let properties = Set(Mirror(reflecting: ContactRecord(identifier: "x")).children.compactMap(\.label))
        #expect(properties.subtracting(keys).isEmpty, "no contact sets \(properties.subtracting(keys).sorted())")
        // The table stays true: each field it lists is a field.
        for key in path.notCarried.keys {
            #expect(keys.contains(key), "\(path.name) lists \(key), which is no field")
        }
    }
}
