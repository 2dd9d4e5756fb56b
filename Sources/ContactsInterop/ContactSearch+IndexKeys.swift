import AppGroupStore
import Foundation

// The name index's keys written as its lines hold them, without making the words.
extension ContactSearch {
    /// `nameWords(record)` as a name index line holds them after the contact's offset — a space
    /// before each word — appended to `bytes`: the index's `appendKeys`, exactly what
    /// `SearchIndexBuilder` makes of `nameWords`, which `ContactSearchWordsTests` checks.
    ///
    /// A compaction indexes every contact an import wrote: making each word a `String` in an array,
    /// then reading its bytes back, was a tenth of a debug import (calls per byte and per word that a
    /// release build inlines). An ASCII name is folded byte by byte from a table here; any other
    /// takes `foundationWords`, as `words` does.
    static func appendNameKeys(_ record: ContactRecord, to bytes: inout [UInt8]) {
        appendKeys(of: record.givenName, to: &bytes)
        appendKeys(of: record.middleName, to: &bytes)
        appendKeys(of: record.familyName, to: &bytes)
        appendKeys(of: record.nickname, to: &bytes)
        appendKeys(of: record.organizationName, to: &bytes)
    }

    /// `asciiFolding` in memory that is never freed (read through a pointer: a debug build calls
    /// an array's subscript, and retains a static array on every access). `nonisolated(unsafe)`:
    /// nobody writes the memory after it is filled, once.
    nonisolated(unsafe) private static let foldingTable: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 128)
        var index = 0
        while index < 128 {
            table[index] = asciiFolding[index]
            index += 1
        }
        return UnsafePointer(table)
    }()

    private static func appendKeys(of name: String, to bytes: inout [UInt8]) {
        guard !name.isEmpty else { return }
        var name = name
        name.withUTF8 { appendKeys(utf8: $0, to: &bytes) }
    }

    /// `appendKeys(of:to:)` of the name whose UTF-8 is `utf8` (valid UTF-8): the name index's
    /// ``AppGroupStore/SearchIndex/FieldKeys``, so a compaction derives the keys from each contact's
    /// stored JSON without making the record or the name's `String` (unless it is not ASCII).
    static func appendKeys(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard let base = utf8.baseAddress else { return }
        let folding = foldingTable
        // Locals: a debug build calls a static's accessor (and its once-check) on every read.
        let separator = Self.separator
        let unknown = Self.unknown
        let count = utf8.count
        // One pass, each word folded straight into `bytes` with a space before it, while checking
        // `asciiWords`' condition (every byte ASCII, with a one-byte folding); a name that fails it
        // is taken back out and given to Foundation. A second pass and a scratch buffer appended
        // with the generic `append(contentsOf:)` were a tenth of a debug compaction's key derivation.
        let mark = bytes.count
        var inWord = false
        var index = 0
        while index < count {
            let byte = base[index]
            index += 1
            let value = byte < 0x80 ? folding[Int(byte)] : unknown
            if value == separator {
                inWord = false
                continue
            }
            if value == unknown {
                bytes.removeLast(bytes.count - mark)
                appendFoundationKeys(of: String(decoding: utf8, as: UTF8.self), to: &bytes)
                return
            }
            if !inWord {
                bytes.append(0x20)
                inWord = true
            }
            bytes.append(UInt8(truncatingIfNeeded: value))
        }
    }

    /// The keys of a name that is not plain ASCII: Foundation's words (`foundationWords`, as `words`
    /// takes them), each split at spaces and newlines as `SearchIndexBuilder` splits a key.
    private static func appendFoundationKeys(of name: String, to bytes: inout [UInt8]) {
        for word in foundationWords(name) {
            var start = 0
            let utf8 = Array(word.utf8)
            for (position, byte) in utf8.enumerated() where byte == 0x20 || byte == 0x0A {
                if position > start {
                    bytes.append(0x20)
                    bytes.append(contentsOf: utf8[start..<position])
                }
                start = position + 1
            }
            if utf8.count > start {
                bytes.append(0x20)
                bytes.append(contentsOf: utf8[start...])
            }
        }
    }
}
