import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Issue 29, item 1: every stored field of a contact is carried by the store's writer and by its
/// fast reader, and the fixture `StoreFixtures.everyField` sets every one of them.
@Suite("ContactRecord: every field is written, read fast and read by Foundation alike")
struct RecordFieldCoverageTests {
    @Test(
        "the every-field fixture sets every stored key; the codec writes each and its fast reader reads back the same record"
    )
    func everyFieldRoundTrips() throws {
        let record = StoreFixtures.everyField()
        let data = try ContactRecordCodec.encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stored = Set(object.keys)
        // The keys Foundation's encoder writes for the same record: the record's own CodingKeys.
        let foundation = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(record)) as? [String: Any])
        #expect(stored == Set(foundation.keys), "the codec and Foundation write different keys")
        // A field the fixture leaves empty is one no round trip below checks: name it.
        let writtenOnlyWhenNotDefault: Set = ["contactType"]  // omitted for "person", which the fixture is
        let expected = Set(Mirror(reflecting: record).children.compactMap(\.label)).subtracting(
            writtenOnlyWhenNotDefault)
        #expect(
            expected.subtracting(stored).isEmpty,
            "not set by StoreFixtures.everyField: \(expected.subtracting(stored).sorted())")
        let fast = data.withUnsafeBytes { ContactRecordCodec.decodeIfPlain($0) }
        #expect(fast == record, "the fast reader gave up or read another record")
        #expect(try JSONDecoder().decode(ContactRecord.self, from: data) == record)
    }
}
