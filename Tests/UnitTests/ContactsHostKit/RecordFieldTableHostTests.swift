import AppGroupStore
import ContactsHostKit
import Foundation
import Testing

/// Issue 29, item 1, on the host's side: `contacts-host get` prints every field of the table, and
/// `contacts-host generate` makes every field of the table, so a field added to the record that
/// either forgets fails here by name.
@Suite("ContactRecord.Field on the host: the printer and the sample generator cover the table")
struct RecordFieldTableHostTests {
    /// Fields `get` prints inside another field's line: the name parts, under "name".
    static let printedWithin: Set<ContactRecord.Field> = [.namePrefix, .middleName, .familyName, .nameSuffix]

    @Test("get prints a line for each field of the every-field contacts, under the field's title")
    func printerCoversTheTable() {
        var organization = StoreFixtures.everyField("every-org")
        organization.contactType = "organization"
        for field in ContactRecord.Field.allCases where !Self.printedWithin.contains(field) {
            let record = field == .contactType ? organization : StoreFixtures.everyField()
            let lines = ContactJSON.lines(of: field, in: record)
            let title = field == .givenName ? "name" : field.title
            #expect(!lines.isEmpty, "get prints nothing for \(field.key)")
            #expect(lines.allSatisfy { $0.hasPrefix(title) }, "\(field.key): \(lines)")
        }
        let name = ContactJSON.detail(StoreFixtures.everyField())
        #expect(name.contains(StoreFixtures.everyField().middleName), "the name line lacks the middle name")
    }

    @Test("generate makes every field of the table among 3,000 contacts (seed 1)")
    func generatorCoversTheTable() throws {
        var keys: Set<String> = []
        for contact in SampleContacts.make(3000, seed: 1) {
            let object = try JSONSerialization.jsonObject(with: try ContactRecordCodec.encode(contact))
            keys.formUnion((object as? [String: Any])?.keys ?? [:].keys)
        }
        let missing = ContactRecord.Field.allCases.map(\.key).filter { !keys.contains($0) }
        #expect(missing.isEmpty, "generate never makes \(missing)")
    }
}
