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
