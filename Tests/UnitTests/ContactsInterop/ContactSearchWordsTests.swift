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
}
