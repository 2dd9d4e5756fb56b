import Foundation

/// The hand-written coder for journal lines (`{"seq":N,"count":C,"author":"…","upsert":[…],"delete":[…],"meta":…}`;
/// readers skip `count`, which only ``JournaledStore/summary()`` reads, from the line's start).
///
/// Contacts go through `ContactRecordCodec`; the small `meta` object goes through Foundation. As
/// for contacts, the fast decoder only answers lines it fully understands and otherwise returns
/// nil, so the caller decodes with Foundation and reports Foundation's error with `path:line`.
enum JournalLineCodec {
    private static let entryKeys = JSONKeyTable(["seq", "upsert", "delete", "meta", "author"])

    /// The entry on this line, or nil when Foundation must decide. `identifiersOnly` keeps only
    /// each upserted contact's identifier (what `IdentifiersEntry` decoding checks and keeps).
    static func fastEntry<Meta: Decodable>(_ bytes: UnsafeRawBufferPointer, identifiersOnly: Bool) -> JournalEntry<
        Meta
    >? {
        guard
            let entry: (seq: Int, author: String?, upsert: [ContactRecord]?, delete: [String]?, meta: Meta?) =
                readEntry(
                    bytes,
                    upsert: { reader in
                        identifiersOnly
                            ? ContactRecord(identifier: try ContactRecordCodec.readIdentifierOnly(&reader))
                            : try ContactRecordCodec.readRecord(&reader)
                    })
        else { return nil }
        return JournalEntry(
            seq: entry.seq, author: entry.author, upsert: entry.upsert, delete: entry.delete, meta: entry.meta)
    }

    /// The line's seq and, for each upserted contact, its identifier and the byte range of its JSON
    /// within `bytes` (compaction copies those bytes instead of decoding and re-encoding them).
    /// Nil when Foundation must decide.
    ///
    /// ``fastLineRanges(_:into:decodesContacts:keeping:decoded:)`` with the line's `meta` decoded (nil
    /// when Foundation cannot decode it as `Meta`: the whole line is then Foundation's to decide).
    static func fastRanges<Meta: Decodable>(
        _ bytes: UnsafeRawBufferPointer, metaType: Meta.Type, decodesContacts: Bool = false,
        keeping kept: UInt64 = ContactRecordCodec.allFields, decoded: (ContactRecord) -> Int = { _ in -1 }
    ) -> (seq: Int, upsert: [UpsertedRange], delete: [String], meta: Meta?)? {
        var ranges = LineRanges()
        guard fastLineRanges(bytes, into: &ranges, decodesContacts: decodesContacts, keeping: kept, decoded: decoded)
        else { return nil }
        var meta: Meta?
        if let range = ranges.meta {
            guard let decoded = decodeMeta(Meta.self, UnsafeRawBufferPointer(rebasing: bytes[range])) else {
                return nil
            }
            meta = decoded
        }
        return (ranges.seq, ranges.upsert, ranges.delete, meta)
    }

    /// One upserted contact of a journal line, as ``fastLineRanges(_:into:decodesContacts:keeping:decoded:)``
    /// finds it: its identifier, the range of its JSON in the line, and the tag `decoded` gave it (-1
    /// when the contact was only checked).
    struct UpsertedRange {
        let identifier: String
        let range: Range<Int>
        let tag: Int
    }

    /// What ``fastLineRanges(_:into:decodesContacts:keeping:decoded:)`` reads of a line: `meta` is the
    /// range of the line's meta value, checked as JSON and not yet decoded (nil when absent or null).
    struct LineRanges {
        var seq = 0
        var upsert: [UpsertedRange] = []
        var delete: [String] = []
        var meta: Range<Int>?
    }

    /// A journal line's keys as ``fastLineRanges(_:into:decodesContacts:keeping:decoded:)`` reads them:
    /// with `count`, so it is read as a known key rather than skipped as an unknown one.
    private static let rangeKeys = JSONKeyTable(["seq", "count", "upsert", "delete", "meta", "author"])

    /// ``fastRanges(_:metaType:decodesContacts:keeping:decoded:)`` without decoding `meta`, and
    /// without a generic parameter: a debug build runs a generic function unspecialized, asking the
    /// runtime for the metadata of its result (a tuple holding `Meta?`) on every line, and compaction
    /// reads every journal line of an import this way. The caller decodes the meta (``decodeMeta(_:_:)``)
    /// when there is one, rarely.
    ///
    /// With `decodesContacts`, `decoded` sees each upserted contact as it is read (compaction derives
    /// its index keys from it, so the contact is not decoded a second time), and what it returns is the
    /// contact's `tag`; without, each contact is only checked (`ContactRecordCodec.checkRecord`), its
    /// tag -1. `keeping` names the fields `decoded` needs (`ContactRecordCodec.fieldMask`; the others
    /// are checked and left empty).
    ///
    /// With `captured` (and without `decodesContacts`), each contact is checked capturing those text
    /// fields' JSON values into `fieldRanges` (`ContactRecordCodec.checkRecord(_:capturing:into:)`,
    /// the ranges relative to `bytes`), and `checked` is asked for its tag right after: a compaction
    /// derives the index keys from the captured values (``FieldKeyDeriver``), making no record.
    ///
    /// The answer is written to `ranges` (emptied first, its arrays' memory kept: a compaction reuses
    /// one for every line); false when Foundation must decide.
    static func fastLineRanges(
        _ bytes: UnsafeRawBufferPointer, into ranges: inout LineRanges, decodesContacts: Bool, keeping kept: UInt64,
        capturing captured: UInt64 = 0, into fieldRanges: UnsafeMutablePointer<Int>? = nil, checked: () -> Int = { -1 },
        decoded: (ContactRecord) -> Int
    ) -> Bool {
        ranges.seq = 0
        // One contact a line is the usual (an import writes one per line): `removeLast` keeps the
        // capacity too, and is not the generic `replaceSubrange` a debug build runs `removeAll` through.
        if ranges.upsert.count == 1 {
            ranges.upsert.removeLast()
        } else if !ranges.upsert.isEmpty {
            ranges.upsert.removeAll(keepingCapacity: true)
        }
        // Only when there is something to remove: a debug build calls the generic `removeAll` on every line.
        if !ranges.delete.isEmpty { ranges.delete.removeAll(keepingCapacity: true) }
        ranges.meta = nil
        // `readWhole` and `readEntry` written out: each is generic, and takes a closure per line.
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        do {
            var hasSeq = false
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: rangeKeys, &members) {
                switch index {
                case 0:
                    ranges.seq = try reader.readInt()
                    hasSeq = true
                    continue
                case 1:
                    // Skipped as an unknown key's value is skipped (readers take the count from the line's start).
                    try reader.skipValue()
                    continue
                default:
                    break
                }
                if try reader.consumeNull() { continue }
                switch index {
                case 2:
                    var elements = StrictJSONReader.ArrayElements()
                    while try reader.nextElement(&elements) {
                        reader.skipWhitespace()
                        let start = reader.position
                        if decodesContacts {
                            // A full read, so a line that Foundation would refuse is never copied as it is.
                            let record = try ContactRecordCodec.readRecord(&reader, keeping: kept)
                            ranges.upsert.append(
                                UpsertedRange(
                                    identifier: record.identifier, range: start..<reader.position,
                                    tag: decoded(record)))
                        } else {
                            // Checked as a full read checks it, so a line that Foundation would refuse is
                            // never copied as it is; but not made into a record only to be dropped.
                            let identifier = try ContactRecordCodec.checkRecord(
                                &reader, capturing: captured, into: fieldRanges)
                            ranges.upsert.append(
                                UpsertedRange(
                                    identifier: identifier, range: start..<reader.position,
                                    tag: captured == 0 ? -1 : checked()))
                        }
                    }
                case 3:
                    var elements = StrictJSONReader.ArrayElements()
                    while try reader.nextElement(&elements) { ranges.delete.append(try reader.readString()) }
                case 4:
                    ranges.meta = try reader.valueRange()
                default:
                    _ = try reader.readString()  // the author: checked as `readEntry` checks it, not kept
                }
            }
            guard hasSeq else { return false }
            try reader.finish()
        } catch {
            return false
        }
        return true
    }

    /// A line's `meta` (the bytes of its value) decoded by Foundation as `Meta`; nil when it cannot
    /// be, and the whole line is then Foundation's to decide (which reports the error with its line).
    static func decodeMeta<Meta: Decodable>(_ type: Meta.Type, _ bytes: UnsafeRawBufferPointer) -> Meta? {
        try? JSONDecoder().decode(Meta.self, from: Data(bytes))
    }

    /// Walks one journal line: its seq, its author, each element of `upsert` read by `element`, the
    /// deleted identifiers and `meta` (absent or null keys are nil). Nil when Foundation must decide.
    private static func readEntry<Element, Meta: Decodable>(
        _ bytes: UnsafeRawBufferPointer, upsert element: (inout StrictJSONReader) throws -> Element
    ) -> (seq: Int, author: String?, upsert: [Element]?, delete: [String]?, meta: Meta?)? {
        StrictJSONReader.readWhole(bytes) { reader in
            var seq: Int?
            var author: String?
            var upsert: [Element]?
            var delete: [String]?
            var meta: Meta?
            try reader.readObject(keys: entryKeys) { reader, index in
                if index == 0 {
                    seq = try reader.readInt()
                    return
                }
                if try reader.consumeNull() { return }
                switch index {
                case 1:
                    var elements: [Element] = []
                    try reader.readArray { elements.append(try element(&$0)) }
                    upsert = elements
                case 2:
                    var identifiers: [String] = []
                    try reader.readArray { identifiers.append(try $0.readString()) }
                    delete = identifiers
                case 3:
                    meta = try readMeta(&reader, in: bytes)
                default:
                    author = try reader.readString()
                }
            }
            guard let seq else { throw StrictJSONReader.GiveUp() }
            return (seq, author, upsert, delete, meta)
        }
    }

    /// An entry's `meta`: the caller's type, so Foundation decodes it; if it cannot, the whole line
    /// goes to Foundation (which reports the error with its line).
    private static func readMeta<Meta: Decodable>(_ reader: inout StrictJSONReader, in bytes: UnsafeRawBufferPointer)
        throws -> Meta
    {
        let range = try reader.valueRange()
        guard
            let decoded = try? JSONDecoder().decode(
                Meta.self, from: Data(UnsafeRawBufferPointer(rebasing: bytes[range])))
        else {
            throw StrictJSONReader.GiveUp()
        }
        return decoded
    }

    /// The line ``fastEntryLine(seq:liveCount:author:upsert:delete:meta:)`` writes for one upserted
    /// contact and nothing else, the contact given as the store's JSON of it (`ContactRecordCodec.encode`'s
    /// bytes, or ``ContactTranscoder``'s): an import's lines, without a record to encode.
    /// Appended to `writer` (an appender reuses one writer for every line: no allocation per line).
    ///
    /// The bytes are those `JSONWriter`'s `open`, `field`, `key` and `close` make (`{"seq":N,"count":M,
    /// "upsert":[` … `]}` and a newline, the count left out when nil), written in one call: nine
    /// and more were a twentieth of a debug import's journal writing, once per contact.
    static func writeEntryLine(seq: Int, liveCount: Int?, contact: UnsafeRawBufferPointer, to writer: inout JSONWriter)
    {
        let seqKey: StaticString = #"{"seq":"#
        let countKey: StaticString = #","count":"#
        let upsertKey: StaticString = #","upsert":["#
        writer.write(atMost: contact.count + 80) { out in
            var written = seqKey.utf8CodeUnitCount
            memcpy(out, seqKey.utf8Start, written)
            written += JSONWriter.writeDecimal(seq, to: out + written)
            if let liveCount {
                memcpy(out + written, countKey.utf8Start, countKey.utf8CodeUnitCount)
                written += countKey.utf8CodeUnitCount
                written += JSONWriter.writeDecimal(liveCount, to: out + written)
            }
            memcpy(out + written, upsertKey.utf8Start, upsertKey.utf8CodeUnitCount)
            written += upsertKey.utf8CodeUnitCount
            if let start = contact.baseAddress {
                memcpy(out + written, start, contact.count)
                written += contact.count
            }
            out[written] = 0x5D  // ]
            out[written + 1] = 0x7D  // }
            out[written + 2] = 0x0A  // \n
            return written + 3
        }
    }

    /// A journal line, `{"seq":N` first, ending in a newline; nil when a record must go through
    /// Foundation (which then throws the error `ContactRecord.encode(to:)` defines).
    static func fastEntryLine<Meta: Encodable>(
        seq: Int, liveCount: Int? = nil, author: String? = nil, upsert: [ContactRecord]?, delete: [String]?,
        meta: Meta?
    ) throws -> Data? {
        if let upsert {
            // An index loop, not `allSatisfy`: a generic call per line in a debug build.
            var index = 0
            while index < upsert.count {
                if !ContactRecordCodec.isEncodable(upsert[index]) { return nil }
                index += 1
            }
        }
        var writer = JSONWriter(capacity: 64 + (upsert?.count ?? 0) * 512 + (delete?.count ?? 0) * 40)
        writer.open()
        writer.field("seq", seq)
        if let liveCount { writer.field("count", liveCount) }
        if let author {
            writer.key("author")
            writer.string(author)
        }
        // Index loops, not `enumerated()`: a debug build runs that iterator generically.
        if let upsert {
            writer.key("upsert")
            writer.byte(0x5B)  // [
            var index = 0
            while index < upsert.count {
                if index > 0 { writer.byte(0x2C) }  // ,
                try ContactRecordCodec.encode(upsert[index], into: &writer)
                index += 1
            }
            writer.byte(0x5D)  // ]
        }
        if let delete {
            writer.key("delete")
            writer.byte(0x5B)
            var index = 0
            while index < delete.count {
                if index > 0 { writer.byte(0x2C) }
                writer.string(delete[index])
                index += 1
            }
            writer.byte(0x5D)
        }
        if let meta {
            writer.key("meta")
            writer.append(try LineCoding.encoder().encode(meta))
        }
        writer.close()
        writer.byte(0x0A)  // \n
        return writer.data
    }
}
