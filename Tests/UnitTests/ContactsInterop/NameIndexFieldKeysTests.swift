import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore
@testable import ContactsInterop

/// A compaction derives the name index's keys from each contact's JSON as it checks it
/// (`SearchIndex.FieldKeys`, `FieldKeyDeriver`), not from a decoded record: the keys must be the
/// decoded record's, byte for byte, on every contact the check accepts.
@Suite("Name index keys from a contact's JSON: the decoded record's keys, byte for byte")
struct NameIndexFieldKeysTests {
    /// What the field-key path makes of the contact in `bytes`: nil when the check refuses it, else
    /// the keys (each index's followed by a newline), or nil keys when the deriver could not read a value.
    private static func derivedKeys(_ bytes: [UInt8], _ deriver: FieldKeyDeriver) -> (accepted: Bool, keys: [UInt8]?) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return (false, nil) }
            var reader = StrictJSONReader(base, count: buffer.count)
            guard (try? ContactRecordCodec.checkRecord(&reader, capturing: deriver.mask, into: deriver.ranges)) != nil,
                (try? reader.finish()) != nil
            else { return (false, nil) }
            var keys: [UInt8] = []
            return (true, deriver.appendKeys(json: base, to: &keys) ? keys : nil)
        }
    }

    /// What the decode path makes of the same bytes: nil when `readRecord` refuses them, else the
    /// record's keys through the index's `appendKeys`, and a newline.
    private static func decodedKeys(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { buffer -> [UInt8]? in
            guard let record = StrictJSONReader.readWhole(buffer, ContactRecordCodec.readRecord) else { return nil }
            var keys: [UInt8] = []
            SearchIndexBuilder.appendKeys(of: record, index: ContactSearch.nameIndex, to: &keys)
            keys.append(0x0A)
            return keys
        }
    }

    /// Whether a name field's value in `bytes` holds an escape (so the test reaches that path).
    private static func escapesAName(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return ["givenName", "middleName", "familyName", "nickname", "organizationName"].contains { name in
            guard let key = text.range(of: "\"\(name)\"") else { return false }
            let rest = text[key.upperBound...].drop { $0 == ":" || $0 == " " }
            guard rest.first == "\"" else { return false }
            var escaped = false
            for character in rest.dropFirst() {
                if escaped { return true }
                if character == "\\" { escaped = true } else if character == "\"" { return false }
            }
            return false
        }
    }

    /// Contact lines of every shape: seeded random contacts as the store writes them and as
    /// Foundation writes them (which escapes `/`), hand-written odd ones, and damaged ones.
    private static func lines() -> [[UInt8]] {
        var lines: [[UInt8]] = [
            #"{"identifier":"a","givenName":"Z\u00e9 \ud83d\ude00","familyName":"O\"Brien\\x\/y"}"#,
            #"{ "givenName" : "Ada\tLove" , "identifier" : "b" , "nickname" : null , "middleName" : "" }"#,
            #"{"identifier":"c","unknown":{"givenName":"Not","a":[1,"\n"]},"organizationName":"Acme\r\nInc"}"#,
            #"{"identifier":"d","phoneNumbers":[{"label":null,"value":"1"}],"givenName":"\u0041\u0301da"}"#,
            #"{"identifier":"e","givenName":"\u2028x\u00a0y","familyName":"\u4e2d\u6587","nickname":"ﬁ İ ß"}"#,
            #"{"identifier":"f","givenName":"A","givenName":"B"}"#,
            #"{"identifier":"g","givenName":"\ud800"}"#,
            #"{"identifier":"h","familyName":7}"#,
            #"{"identifier":"i"}"#,
        ].map { Array($0.utf8) }
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 21)
            let record = StoreCodecDifferentialTests.record(&random)
            if let line = try? ContactRecordCodec.encode(record) { lines.append(Array(line)) }
            guard let foundation = try? LineCoding.encoder().encode(record) else { continue }
            lines.append(Array(foundation))
            lines.append(StoreCodecDifferentialTests.mutate(Array(foundation), &random))
        }
        return lines
    }

    @Test("Random, odd and damaged contacts: accepted by the same check, and the same keys as the decoded record")
    func keysFromJSONAreTheDecodedKeys() throws {
        let deriver = try #require(FieldKeyDeriver([ContactSearch.nameIndex]))
        var accepted = 0
        var escaped = 0
        var nonASCII = 0
        for line in Self.lines() {
            let derived = Self.derivedKeys(line, deriver)
            let decoded = Self.decodedKeys(line)
            let text = String(decoding: line, as: UTF8.self)
            #expect(derived.accepted == (decoded != nil), "\(text)")
            guard let decoded else { continue }
            #expect(derived.keys == decoded, "\(text)")
            accepted += 1
            if Self.escapesAName(line) { escaped += 1 }
            if decoded.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
        }
        // The cases that matter are reached, not only plain ASCII names.
        #expect(accepted > 3000, "accepted \(accepted)")
        #expect(escaped > 300, "names with an escape: \(escaped)")
        #expect(nonASCII > 300, "non-ASCII keys: \(nonASCII)")
    }

    @Test("A deriver is made only for indexes that all declare their keys by text field")
    func deriverNeedsFieldKeys() {
        #expect(FieldKeyDeriver([ContactSearch.nameIndex]) != nil)
        #expect(FieldKeyDeriver([]) == nil)
        let byRecord = SearchIndex(fileName: "other", keysVersion: "1") { [$0.givenName] }
        #expect(FieldKeyDeriver([ContactSearch.nameIndex, byRecord]) == nil)
        let byPhones = SearchIndex(
            fileName: "phones", keysVersion: "1",
            fieldKeys: SearchIndex.FieldKeys(fields: [.phoneNumbers], append: { _, _ in })
        ) { $0.phoneNumbers.map(\.value) }
        #expect(FieldKeyDeriver([byPhones]) == nil)
    }

    @Test("A compaction of random contacts (several to a journal line) writes the name index a rebuild writes")
    func compactionWritesTheRebuiltIndex() throws {
        try withTemporaryAppGroup { group in
            let store = JournaledStore<NoMetadata>(
                directory: group.appGroup.contactsDirectory, derivedIndexes: [ContactSearch.nameIndex])
            var records: [ContactRecord] = []
            for index in 0..<1500 {
                var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 22)
                var record = StoreCodecDifferentialTests.record(&random)
                record.identifier = "c-\(index)"
                if (try? ContactRecordCodec.encode(record)) != nil { records.append(record) }
            }
            #expect(records.count > 500)
            for start in stride(from: 0, to: records.count, by: 7) {
                try store.append(upsert: Array(records[start..<min(start + 7, records.count)]))
            }
            try store.compact()
            let path = store.path(of: ContactSearch.nameIndex)
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: path)
            let use = try store.search(ContactSearch.nameIndex, candidate: { _ in true }, matches: { _ in true }).use
            #expect(use == .rebuilt(written: true))
            let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
            // The bodies (after each header line) byte for byte; the headers differ only in field order.
            let writtenBody = try #require(written.firstIndex(of: 0x0A)).advanced(by: 1)
            let rebuiltBody = try #require(rebuilt.firstIndex(of: 0x0A)).advanced(by: 1)
            #expect(written[writtenBody...] == rebuilt[rebuiltBody...])
            #expect(written.count - writtenBody > records.count * 3, "the index holds keys, not only offsets")
        }
    }
}
