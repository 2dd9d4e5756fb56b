import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// An import checks the usual file, an array of plain contacts, in one pass
/// (`ContactRecordCodec.plainContacts`): it must find exactly the contacts and identifiers that
/// checking each element on its own (`identifierIfPlain`) finds, and take nothing else.
@Suite("Contact array check: one pass finds what checking each contact finds")
struct ContactArrayCheckTests {
    /// A document of `records` as an import file holds them, and each element's range in it.
    private static func document(_ records: [ContactRecord], _ random: inout SeededRandom) -> (Data, [Range<Int>])? {
        let encoder = JSONEncoder()
        if random.chance(0.3) { encoder.outputFormatting = [.prettyPrinted] }
        var text = Data(random.pick(["[", " [\n", "[ "]).utf8)
        var ranges: [Range<Int>] = []
        for (index, record) in records.enumerated() {
            guard var element = try? encoder.encode(record) else { return nil }
            // Some contacts damaged (Foundation's to decide, or not JSON at all).
            if random.chance(0.25) { element = Data(StoreCodecDifferentialTests.mutate(Array(element), &random)) }
            if index > 0 { text.append(contentsOf: Array(random.pick([",", ", ", ",\n  "]).utf8)) }
            // The element's range without the white space around it (where a scan's ranges start and end).
            let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
            let leading = element.prefix { space.contains($0) }.count
            let trailing = element.count > leading ? element.reversed().prefix { space.contains($0) }.count : 0
            ranges.append((text.count + leading)..<(text.count + element.count - trailing))
            text.append(element)
        }
        text.append(contentsOf: Array(random.pick(["]", " ]\n", "\n]"]).utf8))
        return (text, ranges)
    }

    @Test("Random arrays (some contacts Foundation's to decide): the same ranges and identifiers, or nil")
    func randomArrays() throws {
        var found = 0
        var declined = 0
        for index in 0..<1500 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 13)
            let records = (0..<random.int(0...6)).map { _ in StoreCodecDifferentialTests.record(&random) }
            guard let (text, ranges) = Self.document(records, &random) else { continue }
            let expected: [String?] = text.withUnsafeBytes { bytes in
                ranges.map { ContactRecordCodec.identifierIfPlain(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
            }
            let got = text.withUnsafeBytes { ContactRecordCodec.plainContacts(in: $0) }
            if expected.allSatisfy({ $0 != nil }) {
                let plain = try #require(got, "case \(index): \(String(decoding: text, as: UTF8.self))")
                #expect(plain.ranges == ranges, "case \(index)")
                #expect(plain.identifiers == expected.map { $0! }, "case \(index)")
                found += 1
            } else if let got {
                // Damage that still makes an array of plain contacts (split differently): each alone agrees.
                for (range, identifier) in zip(got.ranges, got.identifiers) {
                    let alone = text.withUnsafeBytes {
                        ContactRecordCodec.identifierIfPlain(UnsafeRawBufferPointer(rebasing: $0[range]))
                    }
                    #expect(alone == identifier, "case \(index): \(String(decoding: text, as: UTF8.self))")
                }
            } else {
                declined += 1
            }
        }
        #expect(found > 100 && declined > 50, "found \(found), declined \(declined)")
    }

    @Test("Damaged arrays: whatever one pass accepts, each of its contacts is accepted alone, with that identifier")
    func damagedArrays() throws {
        var accepted = 0
        for index in 0..<1500 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 14)
            let records = (0..<random.int(1...3)).map { _ in
                var record = ContactRecord(identifier: "id-\(random.below(99))")
                record.givenName = random.pick(["A", "Zoë", "x y", ""])
                return record
            }
            guard let (text, _) = Self.document(records, &random) else { continue }
            let damaged = Data(StoreCodecDifferentialTests.mutate(Array(text), &random))
            guard let plain = damaged.withUnsafeBytes({ ContactRecordCodec.plainContacts(in: $0) }) else { continue }
            accepted += 1
            let parsed = try? JSONSerialization.jsonObject(with: damaged) as? [Any]
            #expect(parsed?.count == plain.ranges.count, "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            for (range, identifier) in zip(plain.ranges, plain.identifiers) {
                let alone = damaged.withUnsafeBytes {
                    ContactRecordCodec.identifierIfPlain(UnsafeRawBufferPointer(rebasing: $0[range]))
                }
                #expect(alone == identifier, "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            }
        }
        #expect(accepted > 100, "accepted \(accepted)")
    }

    @Test(
        "Other shapes are declined",
        arguments: [
            "", "{}", "[1]", "[{}]", #"[{"identifier":"a"},]"#, #"[{"identifier":"a"}] x"#,
            #"{"contacts":[{"identifier":"a"}]}"#, #"[{"identifier":"a"} {"identifier":"b"}]"#, "[[]]",
        ])
    func otherShapes(text: String) {
        #expect(Data(text.utf8).withUnsafeBytes { ContactRecordCodec.plainContacts(in: $0) } == nil)
    }

    @Test("Empty and minimal arrays")
    func minimal() throws {
        let empty = try #require(Data(" [ ] ".utf8).withUnsafeBytes { ContactRecordCodec.plainContacts(in: $0) })
        #expect(empty.ranges.isEmpty)
        let one = try #require(
            Data(#"[{"identifier":"a"}]"#.utf8).withUnsafeBytes { ContactRecordCodec.plainContacts(in: $0) })
        #expect(one.ranges == [1..<19] && one.identifiers == ["a"])
    }

    @Test("The first contact's range is asked of firstIsPlain once, before any other is read")
    func firstIsPlainAskedFirst() throws {
        // The second element is not JSON: had it been read first, the answer would be nil either way.
        let text = Data(#"[{"identifier":"a","firstName":"Ada"}, {"identifier":"b"}, nope]"#.utf8)
        var asked: [Range<Int>] = []
        let refused = text.withUnsafeBytes { bytes in
            ContactRecordCodec.plainContacts(in: bytes) { range in
                asked.append(range)
                return false
            }
        }
        #expect(refused == nil)
        #expect(asked == [1..<37])
        // Accepted, the array is read on (and its third element refused as before).
        asked = []
        let valid = Data(#"[{"identifier":"a"},{"identifier":"b"}]"#.utf8)
        let read = try #require(
            valid.withUnsafeBytes { bytes in
                ContactRecordCodec.plainContacts(in: bytes) { range in
                    asked.append(range)
                    return true
                }
            })
        #expect(asked == [1..<19] && read.identifiers == ["a", "b"])
        #expect(text.withUnsafeBytes { ContactRecordCodec.plainContacts(in: $0) { _ in true } } == nil)
    }
}
