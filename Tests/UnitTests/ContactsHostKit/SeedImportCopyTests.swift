import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore
@testable import ContactsHostKit

/// An import of the seed demo's `ContactItems.json` copies each record into the store's form as a
/// plain contact's import does (`ContactImportStream.writePlainContact(ofSeed:to:)`, then the
/// transcoder), instead of decoding it into a record and encoding that. Whatever it copies must be
/// byte for byte what encoding `ContactImport.convert` of Foundation's decoding writes.
@Suite("Seed import copy: a seed record copied as decoding, converting and encoding it writes it")
struct SeedImportCopyTests {
    private static let pieces = ["a", "Z", "0", " ", "é", "😀", "+", "@", ".", "null"]
    /// What `JSONEncoder` escapes ("/" too): the copy leaves such a record to the decoder.
    private static let escaped = ["\"", "\\", "/", "\n"]

    private static func text(_ random: inout SeededRandom) -> String {
        (0..<random.int(0...6)).map { _ in random.chance(0.03) ? random.pick(escaped) : random.pick(pieces) }.joined()
    }

    /// A seed element as `JSONEncoder` or a hand would write it: keys in any order, optional ones
    /// absent or null, now and then a key twice, an extra key or a number where a string belongs.
    private static func element(_ random: inout SeededRandom) -> String {
        func quoted(_ value: String) -> String {
            String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
        }
        var members = [
            "\"identifier\":" + quoted(random.chance(0.1) ? text(&random) : "id-\(random.below(999))"),
            "\"firstName\":" + quoted(text(&random)),
            "\"lastName\":" + quoted(text(&random)),
        ]
        for key in ["phoneNumber", "emailAddress"] {
            switch random.below(3) {
            case 0: break
            case 1: members.append("\"\(key)\":null")
            default: members.append("\"\(key)\":" + quoted(text(&random)))
            }
        }
        if random.chance(0.05) { members.append("\"extra\":1") }
        if random.chance(0.05) { members.append(members[0]) }
        if random.chance(0.05) { members[1] = "\"firstName\":7" }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: random.chance(0.5) ? "," : " , ") + "}"
    }

    @Test("Copied seed records equal encode(convert(Foundation's decoding)); others are left to the decoder")
    func copiesAsDecodingWrites() throws {
        var copied = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: 0x5EED)
            let element = Data(Self.element(&random).utf8)
            let context = "case \(index): \(String(decoding: element, as: UTF8.self))"
            var plain = JSONWriter()
            let wrote = element.withUnsafeBytes { ContactImportStream.writePlainContact(ofSeed: $0, to: &plain) }
            var batch = ContactBatch(capacity: 1)
            guard wrote, let identifier = batch.transcode(plain.bytes) else { continue }
            batch.appendTranscoded(isNew: true, identifier: identifier)
            copied += 1
            // What the import wrote before: Foundation's decoding, converted, normalized and encoded.
            let seed = try #require(
                try? JSONDecoder().decode(ContactImport.SeedRecord.self, from: element), "\(context)")
            #expect(JSONDuplicateKeys.first(in: element) == nil, "a record with a key twice is not copied: \(context)")
            let record = IdentifierRules.normalized(ContactImport.convert(seed))
            #expect(identifier == record.identifier, "\(context)")
            #expect([UInt8](batch.json(at: 0)) == [UInt8](try ContactRecordCodec.encode(record)), "\(context)")
        }
        #expect(copied > 1000, "most generated records are copied (\(copied))")
    }

    @Test("The check's identifier of a seed record is readSeed's, and it gives up exactly where readSeed does")
    func checkReadsAsReadSeed() {
        var read = 0
        for index in 0..<3000 {
            var random = SeededRandom.forCase(index, seed: 0x5EED_C4EC)
            var text = Self.element(&random)
            // Damage now and then: a cut, a stray byte, an invalid UTF-8 byte in a value.
            switch random.below(12) {
            case 0: text = String(text.prefix(random.int(0...text.count)))
            case 1:
                let at = text.index(text.startIndex, offsetBy: random.int(0...text.count))
                text.insert(random.pick(["}", ",", "\"", ":", "x"]), at: at)
            default: break
            }
            var bytes = Array(text.utf8)
            if random.chance(0.05), let quote = bytes.lastIndex(of: 0x22), quote > 0 { bytes.insert(0xFF, at: quote) }
            let context = "case \(index): \(String(decoding: bytes, as: UTF8.self))"
            // What the check took before: `readSeed`, or else Foundation's decoding without a key twice.
            let data = Data(bytes)
            let expected =
                bytes.withUnsafeBytes { ContactImportStream.readSeed($0)?.identifier }
                ?? ((try? JSONDecoder().decode(ContactImport.SeedRecord.self, from: data))
                    .flatMap { JSONDuplicateKeys.first(in: data) == nil ? $0.identifier : nil })
            let identifier = bytes.withUnsafeBytes { ContactImportStream.seedIdentifierIfPlain($0) }
            // Exactly `readSeed`'s answer: where it gives up, the check asks Foundation as before.
            #expect(identifier == bytes.withUnsafeBytes { ContactImportStream.readSeed($0)?.identifier }, "\(context)")
            // And what the check took before (`readSeed`, else Foundation's decoding without a key twice).
            if let identifier { #expect(identifier == expected, "\(context)") }
            if expected != nil { read += 1 }
        }
        #expect(read > 1000, "most generated records read (\(read))")
    }
}
