import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// Compaction checks each contact it copies with `ContactRecordCodec.checkRecord`, which reads past
/// it without making the record: it must accept exactly what `readRecord` (the fast decoder) accepts,
/// with the same identifier, or a line the fast decoder would leave to Foundation could be copied.
@Suite("Contact check: checkRecord accepts what readRecord reads, and nothing else")
struct ContactRecordCheckTests {
    /// `checkRecord`'s answer and `readRecord`'s, each over the whole of `bytes`.
    private static func both(_ bytes: Data) -> (checked: String?, read: String?) {
        bytes.withUnsafeBytes { buffer in
            (
                StrictJSONReader.readWhole(buffer, ContactRecordCodec.checkRecord),
                StrictJSONReader.readWhole(buffer, ContactRecordCodec.readRecord)?.identifier
            )
        }
    }

    @Test("Random contacts, every field, valid and invalid values: the same answer")
    func randomContacts() throws {
        var accepted = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 7)
            let record = StoreCodecDifferentialTests.record(&random)
            guard let line = try? LineCoding.encoder().encode(record) else { continue }
            let (checked, read) = Self.both(line)
            #expect(checked == read, "case \(index): \(String(decoding: line, as: UTF8.self))")
            if read != nil { accepted += 1 }
        }
        #expect(accepted > 1000, "the generator must produce mostly valid contacts")
    }

    @Test("Damaged contact lines (cuts, stray bytes, bad values, duplicate keys, escapes): the same answer")
    func damagedLines() throws {
        var accepted = 0
        var refused = 0
        for index in 0..<8000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 8)
            let record = StoreCodecDifferentialTests.record(&random)
            guard let line = try? LineCoding.encoder().encode(record) else { continue }
            let damaged = Data(StoreCodecDifferentialTests.mutate(Array(line), &random))
            let (checked, read) = Self.both(damaged)
            #expect(checked == read, "case \(index): \(String(decoding: damaged, as: UTF8.self))")
            if read != nil { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 500 && refused > 500, "accepted \(accepted), refused \(refused)")
    }

    /// `identifierIfPlain` (the import's check) and `decodeIfPlain` (its write), over the whole of `bytes`.
    private static func importAnswers(_ bytes: Data) -> (checked: String?, decoded: String?) {
        bytes.withUnsafeBytes { buffer in
            (ContactRecordCodec.identifierIfPlain(buffer), ContactRecordCodec.decodeIfPlain(buffer)?.identifier)
        }
    }

    @Test("The import's check: identifierIfPlain answers as decodeIfPlain, on contacts as JSONEncoder writes them")
    func importCheckAgreesWithDecode() throws {
        var accepted = 0
        var refused = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 9)
            let record = StoreCodecDifferentialTests.record(&random)
            // An import file's contacts come from Foundation's encoder: any key order, escaped slashes.
            let encoder = JSONEncoder()
            if random.chance(0.3) { encoder.outputFormatting = [.prettyPrinted] }
            guard let written = try? encoder.encode(record) else { continue }
            let line = random.chance(0.5) ? Data(StoreCodecDifferentialTests.mutate(Array(written), &random)) : written
            let (checked, decoded) = Self.importAnswers(line)
            #expect(checked == decoded, "case \(index): \(String(decoding: line, as: UTF8.self))")
            if decoded != nil { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 500 && refused > 500, "accepted \(accepted), refused \(refused)")
    }

    @Test("readRecord(keeping:) accepts what readRecord reads and makes exactly the fields kept (random masks)")
    func partialRecords() throws {
        let blank = ContactRecord(identifier: "")
        let simple = ContactRecord.Field.allCases.filter {
            $0.text(of: blank) != nil || $0.labeledStrings(of: blank) != nil
        }
        var accepted = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 10)
            let record = StoreCodecDifferentialTests.record(&random)
            guard let written = try? LineCoding.encoder().encode(record) else { continue }
            let line = random.chance(0.3) ? Data(StoreCodecDifferentialTests.mutate(Array(written), &random)) : written
            let kept = simple.filter { _ in random.chance(0.5) }
            let mask = ContactRecordCodec.fieldMask(kept)
            let (partial, full) = line.withUnsafeBytes { buffer in
                (
                    StrictJSONReader.readWhole(buffer) { try ContactRecordCodec.readRecord(&$0, keeping: mask) },
                    StrictJSONReader.readWhole(buffer, ContactRecordCodec.readRecord)
                )
            }
            #expect((partial == nil) == (full == nil), "case \(index): \(String(decoding: line, as: UTF8.self))")
            guard let partial, let full else { continue }
            accepted += 1
            var expected = ContactRecord(identifier: full.identifier)
            for field in kept {
                if let text = field.text(of: full) { field.setText(text, in: &expected) }
                if let values = field.labeledStrings(of: full) { field.setLabeledStrings(values, in: &expected) }
            }
            #expect(partial == expected, "case \(index): kept \(kept): \(String(decoding: line, as: UTF8.self))")
        }
        #expect(accepted > 1000, "the generator must produce mostly valid contacts")
    }

    /// Labeled-string elements, each in one of the exact forms readers match by their bytes or a byte
    /// away from one (white space, another or a repeated key, a null or a number value, a cut, an
    /// escape or a control byte in a string). `ContactTranscoderTests` reads them too.
    static let labeledStringElements = [
        #"{"label":"l","value":"v"}"#, #"{"label":null,"value":"v"}"#, #"{"value":"v","label":"l"}"#,
        #"{"value":"v","label":null}"#, #"{"label":"l","value":"v" }"#, #"{ "label":"l","value":"v"}"#,
        #"{"label":"l", "value":"v"}"#, #"{"label" :"l","value":"v"}"#, #"{"label":"l","value":"v","x":1}"#,
        #"{"label":"l","value":"v","label":"m"}"#, #"{"value":"v","label":"l","value":"w"}"#,
        #"{"label":"l","value":null}"#, #"{"value":null,"label":"l"}"#, #"{"label":1,"value":"v"}"#,
        #"{"label":"l","value":7}"#, #"{"label":"l"}"#, #"{"value":"v"}"#, #"{"label":"l","value":"v""#,
        #"{"label":"l","value":"#, #"{"label":"\u00e9\"","value":"\\\/"}"#, #"{"label":"l","value":"\ud800"}"#,
        "{\"label\":\"l\",\"value\":\"a\u{1}b\"}", #"{"label":"l","valuex":"v"}"#, #"{"labe":"l","value":"v"}"#,
        #"{"label":nul,"value":"v"}"#, #"{"label":null ,"value":"v"}"#, #"{}"#, #"[]"#, "",
    ]

    @Test(
        "Labeled strings near the exact forms checked by their bytes (label and value in either order): the member loop's answer"
    )
    func labeledStringForms() {
        var accepted = 0
        var refused = 0
        for field in ["phoneNumbers", "emailAddresses"] {
            for first in Self.labeledStringElements {
                for second in ["", #",{"label":"l","value":"v"}"#, #", {"value":"w","label":null}"#] {
                    let line = #"{"identifier":"a",""# + field + #"":["# + first + second + #"],"givenName":"g"}"#
                    let (checked, read) = Self.both(Data(line.utf8))
                    #expect(checked == read, "\(line)")
                    if read != nil { accepted += 1 } else { refused += 1 }
                }
            }
        }
        #expect(accepted > 20 && refused > 20, "accepted \(accepted), refused \(refused)")
    }

    @Test(
        "Hand-picked values each path handles apart: escapes, non-ASCII, null labels, rare fields",
        arguments: [
            #"{"identifier":"a","givenName":"\u00e9\ud83d\ude00\/"}"#,
            #"{"identifier":"a","givenName":"\ud800"}"#,
            #"{"identifier":"a","givenName":"é中"}"#,
            "{\"identifier\":\"a\",\"givenName\":\"\u{FF}\"}",
            #"{"identifier":"a","phoneNumbers":[{"label":null,"value":"1"}]}"#,
            #"{"identifier":"a","phoneNumbers":[{"label":"x"}]}"#,
            #"{"identifier":"a","phoneNumbers":[{"value":null}]}"#,
            #"{"identifier":"a","postalAddresses":[{"street":null,"city":"c","other":[1]}]}"#,
            #"{"identifier":"a","postalAddresses":[{"street":1}]}"#,
            #"{"identifier":"a","socialProfiles":[{"service":"s"}],"instantMessageAddresses":[{}]}"#,
            #"{"identifier":"a","birthday":"1980-02-30"}"#, #"{"identifier":"a","birthday":"--02-03"}"#,
            #"{"identifier":"a","imageData":"AQI="}"#, #"{"identifier":"a","imageData":"AQI"}"#,
            #"{"identifier":"a","contactType":"person"}"#, #"{"identifier":"a","contactType":"Person"}"#,
            #"{"identifier":"a","dates":[{"value":"--12-01"}]}"#, #"{"identifier":"a","dates":[{"value":"12-01"}]}"#,
            #"{"identifier":"a","nonGregorianBirthday":{"calendar":"chinese","month":1,"day":1}}"#,
            #"{"identifier":"a","note":"x","note":"y"}"#, #"{"givenName":"a"}"#, #"{"identifier":null}"#,
            #"{"identifier":"a","jobTitle":"\u0000"}"#, "{\"identifier\":\"a\",\"jobTitle\":\"tab\tin\"}",
        ])
    func handPicked(line: String) {
        let (checked, read) = Self.both(Data(line.utf8))
        #expect(checked == read, "\(line)")
        let (importChecked, decoded) = Self.importAnswers(Data(line.utf8))
        #expect(importChecked == decoded, "\(line)")
    }
}
