import Foundation

/// A marker for stores that keep no metadata beside their contacts (the app database).
package struct NoMetadata: Codable, Equatable, Sendable {
    package init() {}
}

/// The first line of `snapshot.jsonl`.
///
/// ```json
/// {"format":1,"kind":"snapshot","generation":"6F9…","previousGeneration":"1B2…","baseSeq":120,"count":3}
/// ```
package struct SnapshotHeader<Meta: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    package var format: Int
    package var kind: String
    /// Identifies this snapshot's lineage; it changes on every reset and compaction.
    package var generation: String
    /// The generation this one was compacted from (nil after a reset, which forgets history).
    package var previousGeneration: String?
    /// The generation a reset or a whole replacement discarded (nil after a compaction or in files
    /// written before it existed). It lets a reader prove that a journal of that generation, left
    /// behind by a crash between the two renames, is superseded rather than damaged.
    package var replacedGeneration: String?
    /// The sequence number of the last change folded into this snapshot.
    package var baseSeq: Int
    /// How many contact lines follow.
    package var count: Int
    /// Store-specific state at `baseSeq` (the system's sync state; nothing for the app database).
    package var meta: Meta?
}

/// The first line of `journal.jsonl`; it names the snapshot generation the journal extends.
package struct JournalHeader: Codable, Equatable, Sendable {
    package var format: Int
    package var kind: String
    package var generation: String
    package var baseSeq: Int
}

/// One committed change: a line of `journal.jsonl`.
///
/// Sequence numbers are global and contiguous: each entry is `previous + 1`, across compactions.
/// The app database writes one change per entry (so an anchor's offset counts changes); the system
/// store writes one committed page or batch per entry, with its new sync state in `meta`; the
/// device's own store writes one save per entry, with the save's `author` (Apple's
/// `CNSaveRequest.transactionAuthor`) when it named one.
package struct JournalEntry<Meta: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    package var seq: Int
    /// Who made the change (a save request's transaction author); nil when nobody was named, and
    /// in every journal written before authors were recorded.
    package var author: String?
    package var upsert: [ContactRecord]?
    package var delete: [String]?
    package var meta: Meta?

    package init(
        seq: Int, author: String? = nil, upsert: [ContactRecord]? = nil, delete: [String]? = nil, meta: Meta? = nil
    ) {
        self.seq = seq
        self.author = author
        self.upsert = upsert
        self.delete = delete
        self.meta = meta
    }
}

/// Shared JSON coders for the line formats (one object per line, no pretty printing).
package enum LineCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    static func encodeLine<T: Encodable>(_ value: T) throws -> Data {
        var data = try encoder().encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private struct EntryBody<Meta: Encodable>: Encodable {
        var author: String?
        var upsert: [ContactRecord]?
        var delete: [String]?
        var meta: Meta?
    }

    /// A journal line that always starts with `{"seq":N` (Foundation on Linux does not keep key
    /// order), so readers find a line's seq without decoding the whole, possibly large, line. The
    /// author, when there is one, is in the same line as the change it made: one write commits both.
    ///
    /// `liveCount`, when the writer knows it (it holds the store's state), is how many contacts are
    /// live once this entry is applied, written right after the seq (`{"seq":N,"count":C`): a reader
    /// that wants only the store's size reads the journal's last line instead of every line
    /// (``JournaledStore/summary()``). Readers that do not know the key skip it.
    static func encodeEntryLine<Meta: Encodable>(
        seq: Int, liveCount: Int? = nil, author: String? = nil, upsert: [ContactRecord]?, delete: [String]?,
        meta: Meta?
    ) throws -> Data {
        if let line = try JournalLineCodec.fastEntryLine(
            seq: seq, liveCount: liveCount, author: author, upsert: upsert, delete: delete, meta: meta)
        {
            return line
        }
        let body = try encoder().encode(EntryBody(author: author, upsert: upsert, delete: delete, meta: meta))
        var line = Data(#"{"seq":\#(seq)"#.utf8)
        if let liveCount { line.append(contentsOf: #","count":\#(liveCount)"#.utf8) }
        if body.count > 2 {
            line.append(UInt8(ascii: ","))
            line.append(body.dropFirst())
        } else {
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Reads the decimal after a leading `{"seq":` without decoding the whole (possibly long) line.
    static func fastSeq(_ line: Data.SubSequence) -> Int? {
        var index = line.startIndex
        return readPrefixedDecimal(#"{"seq":"#, in: line, at: &index)
    }

    /// The seq and live count of a line that starts `{"seq":N,"count":C,` (or `…C}`), as written by
    /// ``encodeEntryLine(seq:liveCount:author:upsert:delete:meta:)`` with a count; nil for any other line.
    static func fastSeqAndLiveCount(_ line: Data.SubSequence) -> (seq: Int, liveCount: Int)? {
        var index = line.startIndex
        guard let seq = readPrefixedDecimal(#"{"seq":"#, in: line, at: &index),
            let count = readPrefixedDecimal(#","count":"#, in: line, at: &index),
            index < line.endIndex, line[index] == UInt8(ascii: ",") || line[index] == UInt8(ascii: "}")
        else { return nil }
        return (seq, count)
    }

    /// The decimal right after `prefix` at `index` (moved past both); nil when the bytes differ.
    private static func readPrefixedDecimal(_ prefix: StaticString, in line: Data.SubSequence, at index: inout Int)
        -> Int?
    {
        let bytes = UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        guard line.endIndex - index > bytes.count else { return nil }
        for byte in bytes {
            guard line[index] == byte else { return nil }
            index += 1
        }
        var value = 0
        var digits = 0
        while index < line.endIndex, line[index] >= 48, line[index] <= 57, digits < 18 {
            value = value * 10 + Int(line[index] - 48)
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    private struct SeqOnly: Decodable { var seq: Int }

    /// The seq of a journal line: the fast prefix path, else a real decode.
    static func seq(of line: Data.SubSequence) throws -> Int {
        if let value = fastSeq(line) { return value }
        return try JSONDecoder().decode(SeqOnly.self, from: Data(line)).seq
    }

    /// Human-readable reason from a decoding error.
    package static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription + codingPath(context.codingPath)
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'" + codingPath(context.codingPath)
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type)" + codingPath(context.codingPath)
        case DecodingError.valueNotFound(let type, let context):
            return "missing \(type) value" + codingPath(context.codingPath)
        default:
            return "\(error)"
        }
    }

    private static func codingPath(_ path: [CodingKey]) -> String {
        path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// Splits data into complete lines; bytes after the last newline (a torn write) are returned separately.
struct LineSplitter {
    static func split(_ data: Data) -> (lines: [Data.SubSequence], tornTail: Int) {
        var lines: [Data.SubSequence] = []
        var start = data.startIndex
        var index = data.startIndex
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let base = buffer.bindMemory(to: UInt8.self)
            var offset = 0
            while offset < base.count {
                if let found = memchrOffset(base, from: offset) {
                    index = data.startIndex + found
                    lines.append(data[start..<index])
                    start = index + 1
                    offset = found + 1
                } else {
                    break
                }
            }
        }
        return (lines, data.endIndex - start)
    }

    private static func memchrOffset(_ buffer: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        guard let base = buffer.baseAddress, offset < buffer.count else { return nil }
        guard let found = memchr(base + offset, 0x0A, buffer.count - offset) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

/// Substring search on raw bytes.
enum ByteSearch {
    private typealias MemmemFunction =
        @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?, Int) ->
        UnsafeMutableRawPointer?

    /// glibc's `memmem` (SIMD, two-way: it does not slow down when the needle's first byte is common,
    /// as a JSON string's quote is). Glibc's header declares it only under `_GNU_SOURCE`, which Swift's
    /// Glibc module does not define, so it is looked up by name; nil falls back to the loop below.
    private static let memmem: MemmemFunction? = dlsym(nil, "memmem").map {
        unsafeBitCast($0, to: MemmemFunction.self)
    }

    static func contains(_ haystack: UnsafeRawPointer, count: Int, needle: [UInt8]) -> Bool {
        if let memmem, !needle.isEmpty {
            return needle.withUnsafeBytes { memmem(haystack, count, $0.baseAddress, needle.count) != nil }
        }
        guard let first = needle.first, needle.count <= count else { return needle.isEmpty }
        var offset = 0
        let last = count - needle.count
        return needle.withUnsafeBytes { needleBytes in
            while offset <= last {
                guard let found = memchr(haystack + offset, Int32(first), last - offset + 1) else { return false }
                let position = haystack.distance(to: UnsafeRawPointer(found))
                if memcmp(haystack + position, needleBytes.baseAddress!, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
