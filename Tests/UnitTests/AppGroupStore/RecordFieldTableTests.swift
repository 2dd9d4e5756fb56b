import AppGroupStore
import Foundation
import Testing

/// Issue 29, item 1: `ContactRecord.Field` is the one table of a contact's fields. Its order is the
/// order both writers write, its keys are the keys they write, and its kinds say truly which fields
/// the generic accessors reach.
@Suite("ContactRecord.Field: one table for every path that carries a contact")
struct RecordFieldTableTests {
    /// The keys of a JSON object, in the order they appear in `data` (JSONSerialization loses it).
    static func keyOrder(_ data: Data) throws -> [String] {
        try JSONKeyOrder.topLevelKeys(Array(data))
    }

    @Test("the fast writer writes the table's keys in the table's order; Foundation's encoder the same keys")
    func writersFollowTheTable() throws {
        var organization = StoreFixtures.everyField("every-org")
        organization.contactType = "organization"
        for record in [StoreFixtures.everyField(), organization] {
            let fast = try Self.keyOrder(try ContactRecordCodec.encode(record))
            let foundation = try Self.keyOrder(try JSONEncoder().encode(record))
            let table = ContactRecord.Field.allCases.map(\.key)
            // Foundation's encoder on Linux keeps no order (its object is a dictionary): the same keys.
            #expect(Set(fast) == Set(foundation), "the fast writer and Foundation write different keys")
            #expect(fast == table.filter { fast.contains($0) }, "not in the table's order: \(fast)")
        }
        // Every field but contactType (omitted for a person) is written for the every-field person.
        let person = try Self.keyOrder(try ContactRecordCodec.encode(StoreFixtures.everyField()))
        #expect(person == ContactRecord.Field.allCases.map(\.key).filter { $0 != "contactType" })
    }

    @Test(
        "each text field reads and writes its own property through the table; the others are nil",
        arguments: ContactRecord.Field.allCases)
    func genericAccessors(field: ContactRecord.Field) {
        var record = ContactRecord(identifier: "x")
        let marker = "value of \(field.key)"
        field.setText(marker, in: &record)
        let labeled = [ContactRecord.LabeledString(label: nil, value: "2001-02-03")]
        field.setLabeledStrings(labeled, in: &record)
        switch field.kind {
        case .text:
            #expect(field.text(of: record) == marker)
            #expect(Mirror(reflecting: record).children.first { $0.label == field.key }?.value as? String == marker)
            #expect(field.labeledStrings(of: record) == nil)
        case .labeledStrings, .labeledDates:
            #expect(field.labeledStrings(of: record) == labeled)
            #expect(
                Mirror(reflecting: record).children.first { $0.label == field.key }?.value
                    as? [ContactRecord.LabeledString]
                    == labeled)
            #expect(field.text(of: record) == nil)
        default:
            #expect(field.text(of: record) == nil && field.labeledStrings(of: record) == nil)
            #expect(record == ContactRecord(identifier: "x"), "\(field.key) is not of kind text, yet was set")
        }
    }

    @Test("every stored property of the record is a field of the table, and every field a property")
    func tableIsComplete() {
        let properties = Mirror(reflecting: ContactRecord(identifier: "x")).children.compactMap(\.label)
        #expect(properties == ContactRecord.Field.allCases.map(\.key), "the record's properties and the table differ")
    }
}

/// The top-level keys of a JSON object in the order written: a walk over the bytes that tracks
/// strings and nesting, taking each string at depth 1 that a `:` follows.
private enum JSONKeyOrder {
    static func topLevelKeys(_ bytes: [UInt8]) throws -> [String] {
        var keys: [String] = []
        var depth = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: "\""):
                var end = index + 1
                while bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if depth == 1, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":") {
                    keys.append(try JSONDecoder().decode(String.self, from: Data(bytes[index...end])))
                }
                index = end
            default: break
            }
            index += 1
        }
        return keys
    }
}
