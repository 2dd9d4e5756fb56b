import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import AppGroupStore
@testable import ContactsInterop

@Suite("ContactSearch.words: the ASCII path folds and splits exactly as Foundation does")
struct ContactSearchWordsTests {
    @Test("Every ASCII character, alone and between letters")
    func everyCharacter() {
        for byte in UInt8(0)..<0x80 {
            let character = String(Character(Unicode.Scalar(byte)))
            for text in [character, "Ab" + character + "Cd", character + character + "x\r\ny"] {
                if let fast = ContactSearch.asciiWords(text) {
                    #expect(fast == ContactSearch.foundationWords(text), "byte \(byte)")
                }
            }
        }
        #expect(ContactSearch.asciiWords("Ada LOVELACE") == ["ada", "lovelace"])
        #expect(ContactSearch.asciiWords("Zoë") == nil, "non-ASCII text takes Foundation's path")
    }

    @Test("Random ASCII strings (seeded) agree with Foundation's folding")
    func randomStrings() {
        var random = SeededRandom(seed: 2026)
        for _ in 0..<2000 {
            let bytes = (0..<random.int(0...24)).map { _ in UInt8(random.below(128)) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(ContactSearch.words(text) == ContactSearch.foundationWords(text), "\(bytes)")
        }
    }

    @Test("nameWords reads only nameFields: a record holding just those has the same words (seeded)")
    func nameFieldsSuffice() {
        for index in 0..<2000 {
            var random = SeededRandom.forCase(index, seed: StoreCodecDifferentialTests.seed &+ 11)
            let record = StoreCodecDifferentialTests.record(&random)
            var names = ContactRecord(identifier: record.identifier)
            for field in ContactSearch.nameFields { field.setText(field.text(of: record) ?? "", in: &names) }
            #expect(ContactSearch.nameWords(names) == ContactSearch.nameWords(record), "case \(index): \(record)")
        }
    }

    /// What the name index's line holds after a contact's offset, through `appendNameKeys` (the
    /// index's `appendKeys`) and through the words themselves.
    private static func bothKeys(_ record: ContactRecord) -> (direct: [UInt8], fromWords: [UInt8]) {
        var direct: [UInt8] = [9]
        SearchIndexBuilder.appendKeys(of: record, index: ContactSearch.nameIndex, to: &direct)
        var fromWords: [UInt8] = [9]
        SearchIndexBuilder.appendKeys(ContactSearch.nameWords(record), to: &fromWords)
        return (direct, fromWords)
    }

    @Test("The name index's keys written directly are the bytes its words make (every ASCII byte, random names)")
    func directKeys() {
        var random = SeededRandom(seed: 2027)
        var names: [String] = ["", " ", "Ada  LOVELACE ", "\tZoë\n", "e\u{301}cole", "中 文", "a\u{2028}b", "\r\n"]
        for byte in UInt8(0)..<0x80 { names.append("Ab" + String(Character(Unicode.Scalar(byte))) + "Cd") }
        let pieces = ["a", "Z", " ", "  ", "\t", "\n", "-", "'", "é", "ß", "İ", "ﬁ", "中", "\u{0}", "\u{7f}", "\u{a0}"]
        for _ in 0..<1000 { names.append((0..<random.int(0...8)).map { _ in random.pick(pieces) }.joined()) }
        for (index, name) in names.enumerated() {
            var record = ContactRecord(identifier: "c")
            record.givenName = name
            record.familyName = names[(index * 7) % names.count]
            if random.chance(0.3) { record.organizationName = names[(index * 13) % names.count] }
            if random.chance(0.2) { record.nickname = name }
            if random.chance(0.2) { record.middleName = "Q." }
            let (direct, fromWords) = Self.bothKeys(record)
            #expect(direct == fromWords, "\(record.givenName.debugDescription) \(record.familyName.debugDescription)")
        }
    }
}
