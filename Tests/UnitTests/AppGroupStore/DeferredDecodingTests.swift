import ContactProviderTesting
import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AppGroupStore

/// A content page's records defer decoding their fields (`ContactRecordCodec.deferringRecord`): each
/// must be, in everything but when its fields are made, the record `fastDecode` makes of the same
/// bytes, on every path a record takes (reads, copies, writes, encoding), from any thread.
@Suite("Deferred decoding: a content page's records are the decoded records, decoded when read")
struct DeferredDecodingTests {
    /// The deferring record and the decoded one (keeping the bytes, as the pager did) of `bytes`.
    private static func both(_ bytes: [UInt8]) -> (deferred: ContactRecord?, decoded: ContactRecord?) {
        bytes.withUnsafeBytes {
            (ContactRecordCodec.deferringRecord($0), ContactRecordCodec.fastDecode($0, keeping: VerbatimJSON($0)))
        }
    }

    /// Random contacts as the store writes them, some damaged: `(case, line)`.
    private static func lines(count: Int, seed: UInt64) -> [(index: Int, bytes: [UInt8])] {
        (0..<count).compactMap { index in
            var random = SeededRandom.forCase(index, seed: seed)
            let record = StoreCodecDifferentialTests.record(&random)
            guard let line = try? ContactRecordCodec.encode(record) else { return nil }
            let bytes = Array(line)
            return (index, random.chance(0.3) ? StoreCodecDifferentialTests.mutate(bytes, &random) : bytes)
        }
    }

    @Test("Random and damaged lines: the same answer, fields, bytes and encoding as the decoded record")
    func agreesWithDecoding() throws {
        var deferredCount = 0
        var decodedAtOnce = 0
        var refused = 0
        for (index, bytes) in Self.lines(count: 4000, seed: StoreCodecDifferentialTests.seed &+ 21) {
            let (deferred, decoded) = Self.both(bytes)
            let context = "case \(index): \(String(decoding: bytes, as: UTF8.self))"
            guard let deferred, let decoded else {
                #expect(deferred == nil && decoded == nil, "\(context)")
                refused += 1
                continue
            }
            if deferred.defersDecoding {
                deferredCount += 1
                // Nothing about it needs the fields: not its identifier, bytes, or encoding.
                #expect(deferred.identifier == decoded.identifier, "\(context)")
                #expect(deferred.verbatim.bytes == decoded.verbatim.bytes, "\(context)")
                #expect(try ContactRecordCodec.encode(deferred) == ContactRecordCodec.encode(decoded), "\(context)")
                #expect(ContactRecordCodec.isEncodable(deferred), "\(context)")
                #expect(!deferred.hasDecodedDeferredFields, "\(context)")
                // The fields, once read, are the decoded record's.
                #expect(deferred.fields == decoded.fields, "\(context)")
                #expect(deferred.hasDecodedDeferredFields, "\(context)")
                // Never a birthday, dates, non-Gregorian birthday or contact type (see `defersDecoding`).
                #expect(
                    decoded.birthday == nil && decoded.dates.isEmpty && decoded.nonGregorianBirthday == nil
                        && decoded.contactType == nil, "\(context)")
            } else {
                decodedAtOnce += 1
                #expect(deferred.fields == decoded.fields, "\(context)")
                #expect(deferred.verbatim.bytes == decoded.verbatim.bytes, "\(context)")
                let valuesDecodedAtOnce =
                    decoded.birthday != nil || !decoded.dates.isEmpty || decoded.nonGregorianBirthday != nil
                    || decoded.contactType != nil || bytes.first != UInt8(ascii: "{")
                    || bytes.last != UInt8(ascii: "}")
                // A `"contactType":"person"` decodes to nil but still has a value in the line.
                let hasContactTypeKey = String(decoding: bytes, as: UTF8.self).contains("\"contactType\":\"")
                #expect(valuesDecodedAtOnce || hasContactTypeKey, "decoded at once for no reason: \(context)")
            }
            #expect(deferred == decoded && deferred.hashValue == decoded.hashValue, "\(context)")
        }
        #expect(
            deferredCount > 300 && decodedAtOnce > 300 && refused > 300,
            "\(deferredCount), \(decodedAtOnce), \(refused)")
    }

    /// Deferring records of plain random lines (none decoded at once).
    private static func deferredRecords(count: Int, seed: UInt64) -> [(record: ContactRecord, decoded: ContactRecord)] {
        lines(count: count * 4, seed: seed).compactMap { _, bytes in
            let (deferred, decoded) = both(bytes)
            guard let deferred, let decoded, deferred.defersDecoding else { return nil }
            return (deferred, decoded)
        }
    }

    @Test("Copies read from many threads at once all see the decoded fields, decoded once for all")
    func concurrentFirstReads() throws {
        let pairs = Self.deferredRecords(count: 300, seed: StoreCodecDifferentialTests.seed &+ 22)
        #expect(pairs.count > 100)
        let mismatches = Mutex<[String]>([])
        let records = pairs.map(\.record)
        let expected = pairs.map(\.decoded.fields)
        // Eight threads read every record's fields at the same moment (each through its own copy).
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for (index, record) in records.enumerated() {
                // Half the threads come in through all the fields, half through one getter.
                let copy = record
                let fields: ContactRecord.Fields
                let sameNames: Bool
                if thread % 2 == 0 {
                    fields = copy.fields
                    sameNames = copy.givenName == expected[index].givenName && copy.note == expected[index].note
                } else {
                    sameNames = copy.givenName == expected[index].givenName && copy.note == expected[index].note
                    fields = copy.fields
                }
                if fields != expected[index] || !sameNames {
                    mismatches.withLock { $0.append("thread \(thread), record \(record.identifier)") }
                }
            }
        }
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0 })")
        #expect(records.allSatisfy { $0.hasDecodedDeferredFields })
    }

    @Test("A write makes a copy an ordinary record without the bytes, and leaves the original as it was")
    func writesCopyAndForget() throws {
        for (record, decoded) in Self.deferredRecords(count: 50, seed: StoreCodecDifferentialTests.seed &+ 23) {
            var changed = record
            changed.givenName += "!"
            #expect(!changed.defersDecoding && changed.verbatim.bytes == nil)
            #expect(changed.givenName == decoded.givenName + "!" && changed.note == decoded.note)
            #expect(record.defersDecoding && record.verbatim.bytes == decoded.verbatim.bytes)
            #expect(record.givenName == decoded.givenName)
            // The identifier is written in place too, and the record stays the same contact otherwise.
            var renamed = record
            renamed.identifier += "-2"
            #expect(!renamed.defersDecoding && renamed.verbatim.bytes == nil)
            #expect(renamed.phoneNumbers == decoded.phoneNumbers && record.identifier == decoded.identifier)
            // Setting the bytes (what a decoder does) also makes the record an ordinary one first.
            var rebytes = record
            rebytes.verbatim = VerbatimJSON()
            #expect(!rebytes.defersDecoding && rebytes.fields == decoded.fields)
        }
    }
}
