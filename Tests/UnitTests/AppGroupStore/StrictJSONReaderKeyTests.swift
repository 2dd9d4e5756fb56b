import Foundation
import Testing

@testable import AppGroupStore

/// `readObject(keys:)` finds a key's end with `memchr` and skips the byte-by-byte check for keys
/// equal to one of its table's; `JSONKeyTable.index(of:from:)` searches from a hint. Both must
/// answer exactly as the full check and a search from the start do.
@Suite("The strict reader's keys: the table fast path reads what the full check reads")
struct StrictJSONReaderKeyTests {
    static let table = JSONKeyTable(["a", "bb", "ccc", "identifier", "é-not-in-a-store"])

    /// The (key index, value) pairs `readObject(keys:)` reads from `text`, or nil when it gives up.
    private func read(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            StrictJSONReader.readWhole(raw) { reader in
                var pairs: [String] = []
                try reader.readObject(keys: Self.table) { reader, index in
                    pairs.append("\(index)=\(try reader.readString())")
                }
                return pairs
            }
        }
    }

    /// The same through `readObject(_:)` (every key checked byte by byte), mapped through the table.
    private func readChecked(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            StrictJSONReader.readWhole(raw) { reader in
                var pairs: [String] = []
                var seen = Set<Int>()
                try reader.readObject { reader, key in
                    guard let index = Self.table.index(of: key) else { return try reader.skipValue() }
                    guard seen.insert(index).inserted else { throw StrictJSONReader.GiveUp() }
                    pairs.append("\(index)=\(try reader.readString())")
                }
                return pairs
            }
        }
    }

    @Test(arguments: [
        #"{"a":"1","bb":"2","ccc":"3"}"#, #"{"ccc":"3","a":"1"}"#, #"{"identifier":"x","zz":"y","a":"1"}"#,
        #"{}"#, #"{ "a" : "1" , "bb":"2" }"#, #"{"":"empty key","a":"1"}"#, #"{"é-not-in-a-store":"v"}"#,
        #"{"ünknown":"v","a":"1"}"#, #"{"a":"1","a":"2"}"#, #"{"a\u0062":"escaped"}"#, #"{"b\"b":"quote"}"#,
        #"{"a\\":"backslash"}"#, "{\"a\tb\":\"tab\"}", "{\"x\u{1}\":\"control\"}", #"{"a":"1","bb"#, #"{"a"#,
        #"{"a""#, #"{"a":"1","#, "{\"\u{FF}\":1}", #"{"bb":"2","zz":{"a":[1,"x"]},"a":"1"}"#, #"{"a" "1"}"#,
    ])
    func sameAsTheFullCheck(_ text: String) {
        #expect(read(text) == readChecked(text), "\(text)")
    }

    @Test func keyAtTheEndOfTheBuffer() {
        // The last byte of the input is the key's closing quote (no colon): given up on, never read past.
        for text in [#"{"a""#, #"{"identifier""#, #"{"zz""#, #"{""#] {
            #expect(read(text) == nil, "\(text)")
        }
        #expect(read(#"{"a":"1"}"#) == ["0=1"])
    }

    @Test func searchFromAnyHintFindsTheSameIndex() {
        let names = ["a", "bb", "ccc", "identifier", "é-not-in-a-store"]
        for (expected, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            bytes.withUnsafeBytes { key in
                for hint in -1...7 {
                    #expect(Self.table.index(of: key, from: hint) == expected, "\(name) from \(hint)")
                }
            }
        }
        for unknown in ["", "b", "cc", "identifiers", "A"] {
            let bytes = Array(unknown.utf8)
            bytes.withUnsafeBytes { key in
                for hint in 0...5 { #expect(Self.table.index(of: key, from: hint) == nil, "\(unknown) from \(hint)") }
            }
        }
    }
}

/// `readString` first skips whole 8-byte words of plain ASCII; a quote, backslash, control byte or
/// non-ASCII byte anywhere in a word must stop the skip, so the string reads as Foundation reads it.
@Suite("The strict reader's strings: the 8-byte skip stops at every special byte, wherever it is")
struct StrictJSONReaderStringTests {
    /// What `readString` makes of `json` (one JSON string, nothing after it), or nil when it gives up.
    private func read(_ json: [UInt8]) -> String? {
        json.withUnsafeBytes { raw in StrictJSONReader.readWhole(raw) { try $0.readString() } }
    }

    /// Foundation's reading of the same string (inside an array: a top-level fragment is allowed too,
    /// but the array keeps the test independent of that option).
    private func foundation(_ json: [UInt8]) -> String? {
        try? JSONDecoder().decode([String].self, from: Data([0x5B] + json + [0x5D])).first
    }

    @Test func everySpecialByteAtEveryPosition() {
        // Escapes as they appear in JSON text, raw control bytes, a raw quote (ends the string early,
        // leaving bytes behind: invalid), and multi-byte UTF-8 (valid and invalid).
        let specials: [[UInt8]] = [
            Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\/"#.utf8),
            [0x00], [0x09], [0x1F], [0x22], Array("é".utf8), Array("🙂".utf8), [0xC3], [0xFF], [0x7F], [0x20],
        ]
        for length in 0...20 {
            for position in 0...length {
                for special in specials {
                    var content = Array(repeating: UInt8(0x61), count: length)
                    content.insert(contentsOf: special, at: position)
                    let json = [0x22] + content + [0x22]
                    let expected = foundation(json)
                    let actual = read(json)
                    // The strict reader may give up where Foundation reads; it must never disagree.
                    if let actual { #expect(actual == expected, "\(json)") }
                    if expected == nil { #expect(actual == nil, "\(json)") }
                }
            }
        }
    }

    @Test func plainStringsOfEveryLengthAndUnterminatedOnes() {
        for length in 0...40 {
            let content = (0..<length).map { UInt8(0x30 + $0 % 40) }.map { $0 == 0x5C ? 0x5D : $0 }
            let text = String(decoding: content, as: UTF8.self)
            #expect(read([0x22] + content + [0x22]) == text, "length \(length)")
            // No closing quote: the skip must not read past the end, and the reader gives up.
            #expect(read([0x22] + content) == nil, "unterminated, length \(length)")
        }
    }

    @Test("index(of:from:) finds every key from every hint, among keys of equal lengths, and nothing else")
    func lookupFromEveryHint() {
        let names = ["ab", "cd", "ef", "abc", "x", "", "identifier", "givenName", "familyName", "é"]
        let table = JSONKeyTable(names)
        let strangers = ["ac", "abd", "y", "abcd", "identifiers", "givenNam", "é ", "xx", "familyname"]
        for hint in -1...(names.count + 1) {
            for (index, name) in names.enumerated() {
                let found = Array(name.utf8).withUnsafeBytes { table.index(of: $0, from: hint) }
                #expect(found == index, "\(name) from \(hint)")
            }
            for name in strangers {
                let found = Array(name.utf8).withUnsafeBytes { table.index(of: $0, from: hint) }
                #expect(found == nil, "\(name) from \(hint)")
            }
        }
    }
}
