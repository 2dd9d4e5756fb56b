import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore

/// An import copies each contact's JSON into the store's form (`ContactTranscoder`) instead of
/// decoding and encoding it: whatever it copies must be byte for byte what `ContactRecordCodec.encode`
/// writes for the record `decodeIfPlain` makes, with that record's identifier; and whatever
/// `decodeIfPlain` refuses it must refuse too (the caller then decodes as before).
@Suite("Contact transcoder: copies a contact exactly as decoding and encoding it writes it")
struct ContactTranscoderTests {
    /// Strings that `JSONEncoder` writes without an escape (most of an import file's), some beyond ASCII.
    private static let plainPieces = ["a", "Z", "0", " ", "é", "e\u{301}", "😀", "中", "{", "]", ",", ":", "null"]

    private static func plainString(_ random: inout SeededRandom, maxLength: Int = 6) -> String {
        (0..<random.int(0...maxLength)).map { _ in random.pick(plainPieces) }.joined()
    }

    /// A contact of the fields the transcoder copies, mostly with strings it copies.
    static func simpleRecord(_ random: inout SeededRandom) -> ContactRecord {
        var record = ContactRecord(
            identifier: random.chance(0.05)
                ? "" : random.chance(0.1) ? "é-\(random.below(99))" : "id-\(random.below(999))")
        let fields: [WritableKeyPath<ContactRecord, String>] = [
            \.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname, \.organizationName,
            \.departmentName, \.jobTitle, \.note, \.previousFamilyName, \.phoneticGivenName, \.phoneticMiddleName,
            \.phoneticFamilyName, \.phoneticOrganizationName,
        ]
        for field in fields where random.chance(0.4) { record[keyPath: field] = plainString(&random) }
        func labeled() -> [ContactRecord.LabeledString] {
            (0..<random.int(0...2)).map { _ in
                .init(label: random.chance(0.3) ? nil : plainString(&random, maxLength: 3), value: plainString(&random))
            }
        }
        if random.chance(0.6) { record.phoneNumbers = labeled() }
        if random.chance(0.5) { record.emailAddresses = labeled() }
        if random.chance(0.2) { record.urlAddresses = labeled() }
        if random.chance(0.2) { record.contactRelations = labeled() }
        return record
    }

    /// What the import wrote before: the store's JSON of `decodeIfPlain`'s record, and its identifier.
    private static func decodedAndEncoded(_ bytes: Data) throws -> (json: [UInt8], identifier: String)? {
        guard let record = bytes.withUnsafeBytes({ ContactRecordCodec.decodeIfPlain($0) }) else { return nil }
        let json = try ContactRecordCodec.encode(IdentifierRules.normalized(record))
        return ([UInt8](json), record.identifier)
    }

    /// The transcoder's answer for `bytes`, written after a prefix that must stay as it was.
    private static func transcoded(_ bytes: Data) -> (json: [UInt8], identifier: String)? {
        var transcoder = ContactTranscoder()
        var output = JSONWriter()
        output.append(Array("prefix".utf8))
        let identifier = bytes.withUnsafeBytes { transcoder.transcode($0, into: &output) }
        let written = [UInt8](output.bytes)
        #expect(written.starts(with: Array("prefix".utf8)))
        guard let identifier else {
            #expect(written.count == 6, "nothing written when it answers nil")
            return nil
        }
        return (Array(written.dropFirst(6)), identifier)
    }

    /// Checks one input; returns whether the transcoder copied it.
    @discardableResult
    private static func check(_ bytes: Data, _ context: String) throws -> Bool {
        let expected = try decodedAndEncoded(bytes)
        guard let got = transcoded(bytes) else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        let want = try #require(expected, "\(context): copied what decodeIfPlain refuses: \(text)")
        #expect(got.identifier == want.identifier, "\(context): \(text)")
        #expect(
            got.json == want.json,
            "\(context): \(text)\ngot  \(String(decoding: got.json, as: UTF8.self))\nwant \(String(decoding: want.json, as: UTF8.self))"
        )
        return true
    }

    @Test("Contacts as JSONEncoder writes them (any key order, pretty or not), some damaged: the same bytes")
    func randomContacts() throws {
        var copied = 0
        var declined = 0
        for index in 0..<4000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 11)
            let record =
                random.chance(0.7) ? Self.simpleRecord(&random) : StoreCodecDifferentialTests.record(&random)
            let encoder = JSONEncoder()
            if random.chance(0.3) { encoder.outputFormatting = [.prettyPrinted] }
            guard var line = try? encoder.encode(record) else { continue }
            if random.chance(0.3) { line = Data(StoreCodecDifferentialTests.mutate(Array(line), &random)) }
            if try Self.check(line, "case \(index)") { copied += 1 } else { declined += 1 }
        }
        #expect(copied > 1000 && declined > 500, "copied \(copied), declined \(declined)")
    }

    @Test(
        "Hand-picked: nulls, empty values, label order, escapes, other fields, bad identifiers",
        arguments: [
            #"{"identifier":"a"}"#, #" {"identifier":"a"} "#, #"{"givenName":"x","identifier":"a"}"#,
            #"{"identifier":"a","givenName":"","note":null,"phoneNumbers":[],"emailAddresses":null}"#,
            #"{"identifier":"a","phoneNumbers":[{"value":"1","label":"m"},{"label":null,"value":""}]}"#,
            #"{"identifier":"a","phoneNumbers":[{"value":"1","other":[1,{"x":null}],"label":""}]}"#,
            #"{"emailAddresses":[{"value":"e"}],"familyName":"F","identifier":"a","givenName":"G","x":1}"#,
            #"{"identifier":"a","givenName":"a\/b"}"#, #"{"identifier":"a\/b"}"#, #"{"identifier":""}"#,
            #"{"identifier":"é"}"#, #"{"identifier":"e\u0301"}"#, #"{"identifier":null}"#, #"{"givenName":"a"}"#,
            #"{"identifier":"a","birthday":"--02-03"}"#, #"{"identifier":"a","contactType":"person"}"#,
            #"{"identifier":"a","postalAddresses":[]}"#, #"{"identifier":"a","dates":[{"value":"--12-01"}]}"#,
            #"{"identifier":"a","note":"x","note":"y"}"#, #"{"identifier":"a","phoneNumbers":[{"label":"x"}]}"#,
            #"{"identifier":"a","phoneNumbers":[{"value":null}]}"#, #"{"identifier":"a","jobTitle":"\u0000"}"#,
            "{\"identifier\":\"a\",\"jobTitle\":\"tab\tin\"}", "{\"identifier\":\"a\",\"note\":\"\u{FF}\"}",
            #"{"identifier":"a","givenName":"é中😀"}"#, #"{"identifier":"a"}x"#, #"{"identifier":"a""#,
        ])
    func handPicked(line: String) throws {
        try Self.check(Data(line.utf8), "hand-picked")
    }

    @Test("Labeled strings at and a byte away from the exact forms read by their bytes: the same bytes, or declined")
    func labeledStringForms() throws {
        var copied = 0
        for first in ContactRecordCheckTests.labeledStringElements {
            for second in ["", #",{"label":"l","value":"v"}"#, #", {"value":"w","label":null}"#] {
                let line = #"{"identifier":"a","emailAddresses":["# + first + second + #"],"givenName":"g"}"#
                let wasCopied = try Self.check(Data(line.utf8), "labeled strings")
                if wasCopied { copied += 1 }
                // The exact forms themselves, without escapes, are copied (not declined to be decoded).
                if ContactRecordCheckTests.labeledStringElements.prefix(4).contains(first) {
                    #expect(wasCopied, "\(line)")
                }
            }
        }
        #expect(copied > 20, "copied \(copied)")
    }

    @Test("An import through the transcoder writes the same journal lines as one through records")
    func sameJournal() throws {
        var random = SeededRandom(seed: StoreCodecDifferentialTests.seed &+ 12)
        let records = (0..<300).map { index in
            var record =
                random.chance(0.8) ? Self.simpleRecord(&random) : StoreCodecDifferentialTests.record(&random)
            // Valid and distinct identifiers, a few repeated (updates) and a few empty (new UUIDs).
            record.identifier = random.chance(0.05) ? "" : "c-\(random.chance(0.1) ? index / 2 : index)"
            return record
        }
        // As an import file holds them (records Foundation refuses to encode cannot be in one).
        let encoded = records.compactMap { try? JSONEncoder().encode($0) }
        func journalBody(transcoding: Bool) throws -> [String] {
            try withTemporaryAppGroup { group in
                let database = AppDatabase(appGroup: group.appGroup)
                try database.add(StoreFixtures.contact("c-3", given: "Old"))
                let result = try database.upsert(
                    count: encoded.count, batchSize: 64,
                    transcode: transcoding
                        ? { index, batch in encoded[index].withUnsafeBytes { batch.transcode($0) } } : nil
                ) { index in
                    // As `ContactImportStream.record(at:)` decodes a contact.
                    try encoded[index].withUnsafeBytes { ContactRecordCodec.decodeIfPlain($0) }
                        ?? JSONDecoder().decode(ContactRecord.self, from: encoded[index])
                }
                #expect(result.added + result.updated == encoded.count)
                let text = try String(contentsOfFile: database.store.journalPath, encoding: .utf8)
                // Without the header line (its generation), the identifiers made for empty ones named alike.
                return text.split(separator: "\n").dropFirst().map {
                    String($0).replacing(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/, with: "UUID")
                }
            }
        }
        let plain = try journalBody(transcoding: false)
        #expect(plain.count > 200)
        #expect(try journalBody(transcoding: true) == plain)
    }
}
