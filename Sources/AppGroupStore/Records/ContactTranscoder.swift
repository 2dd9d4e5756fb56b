import Foundation

// The JSON bytes in this file are hex literals, not `UInt8(ascii:)`: that initializer is a function
// call in a debug build. 0x22 "  0x2C ,  0x3A :  0x5B [  0x5D ]  0x7B {  0x7D }

/// Rewrites one contact's JSON as the store writes it — what `ContactRecordCodec.encode` writes for
/// the record `ContactRecordCodec.decodeIfPlain` makes of it — without making the record.
///
/// An import writes every contact of its file to the journal: decoding each into a record only to
/// encode it again was a third of a debug import's time, mostly calls per value that a release build
/// inlines. An import file comes from `JSONEncoder` (keys in any order, nulls, empty values), the
/// store's line has the table's keys in order with empty values left out; this copies each value's
/// bytes into that order instead. It takes the contacts it can copy exactly: an identifier that is
/// ASCII (already in the form `IdentifierRules.normalized` makes) and not empty, the text fields, and
/// phones, e-mails, URLs and relations; every string without an escape (`JSONWriter` would write an
/// escaped one differently). Anything else — another field with a value, an escape, any input
/// `decodeIfPlain` refuses — answers nil, and the caller decodes the contact as before.
/// `ContactTranscoderTests` hold it to `encode(decodeIfPlain(_:))` on random and damaged contacts.
///
/// Non-copyable: it owns its scratch memory, reused from one contact to the next. Its bytes are
/// written here, not through `JSONWriter`: a debug build compiles each file apart and inlines a
/// transparent function only into callers in its own file, so each `JSONWriter.byte` was a call.
package struct ContactTranscoder: ~Copyable {
    /// The members copied so far, in the order the input gives them (`,"key":value` each), then
    /// the contact assembled from them in the table's order.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var capacity = 1024
    private var count = 0
    /// For each index of `ContactRecordCodec.recordKeys`: where its member starts in `scratch`, where
    /// it ends, and where its value starts from the member's start (three entries per field).
    private let members: UnsafeMutablePointer<Int>

    private static let labeledStringKeys = JSONKeyTable(["label", "value"])

    /// A transcoder with empty scratch memory.
    package init() {
        scratch = .allocate(capacity: capacity)
        members = .allocate(capacity: 3 * 64)
    }

    deinit {
        scratch.deallocate()
        members.deallocate()
    }

    /// Appends the store's JSON of the contact in `bytes` (the whole of it one object, white space
    /// around it allowed) to `output`, and returns its identifier; nil, with `output` unchanged, when
    /// the contact is not one this copies (the caller then decodes it).
    ///
    /// With `ranges`, it also notes where each text field of `capturing` (a mask, as
    /// `ContactRecordCodec.fieldMask` makes) is in the JSON it appended, as
    /// `ContactRecordCodec.checkRecord(_:capturing:into:)` notes it in the JSON it checks: for table
    /// index `i`, the value's quotes at `ranges[2 * i]` and `ranges[2 * i + 1] - 1`, from the
    /// contact's first byte; -1 at `ranges[2 * i]` for a field left out. A `FieldKeyDeriver` then
    /// makes the contact's index keys of it, so a compaction of the lines written need not read them
    /// again (``WrittenContactLines``).
    package mutating func transcode(
        _ bytes: UnsafeRawBufferPointer, into output: inout JSONWriter, capturing: UInt64 = 0,
        into ranges: UnsafeMutablePointer<Int>? = nil
    ) -> String? {
        guard let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(input, count: bytes.count)
        count = 0
        guard let (identifier, present) = try? readMembers(&reader, input), (try? reader.finish()) != nil else {
            return nil
        }
        // `{"identifier":"…"`, then each member in the table's order (as `encode` writes them),
        // assembled after the members and appended in one piece.
        let start = count
        let identifierLength = identifier.upperBound - identifier.lowerBound
        put(0x7B)
        put(0x22)
        put(ContactRecordCodec.recordKeys.key(at: 0))
        put(0x22)
        put(0x3A)
        put(input + identifier.lowerBound, identifierLength)
        if let ranges {
            // Every captured field left out first; those present are noted as they are assembled.
            var absent = capturing
            while absent != 0 {
                ranges[2 * absent.trailingZeroBitCount] = -1
                absent &= absent &- 1
            }
            // The identifier, first: `{"identifier":"…"` (no index of ours reads it).
            if capturing & 1 != 0 {
                ranges[0] = 4 + ContactRecordCodec.recordKeys.key(at: 0).count
                ranges[1] = ranges[0] + identifierLength
            }
        }
        // The fields present, lowest first: a handful, not a loop over all 64 bits per contact.
        var remaining = present
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            let member = members[3 * index]
            let length = members[3 * index + 1] - member
            if let ranges, capturing & (1 << UInt64(index)) != 0 {
                let at = count - start
                ranges[2 * index] = at + members[3 * index + 2]
                ranges[2 * index + 1] = at + length
            }
            // `scratch` may move as it grows: the member is copied from where it is now.
            reserve(length)
            put(scratch + member, length)
        }
        put(0x7D)
        output.append(scratch + start, count: count - start)
        // The identifier without its quotes (ASCII, checked below).
        return String(
            decoding: UnsafeBufferPointer(start: input + identifier.lowerBound + 1, count: identifierLength - 2),
            as: UTF8.self)
    }

    /// Reads the contact object as `ContactRecordCodec.readRecord` reads it (giving up wherever it
    /// does), copying each member to `scratch`: the identifier's range in `input` (quotes included)
    /// and the set of fields copied. Gives up, too, on whatever this does not copy.
    private mutating func readMembers(_ reader: inout StrictJSONReader, _ input: UnsafePointer<UInt8>) throws -> (
        Range<Int>, UInt64
    ) {
        // The fields copied: one string each, or an array of labeled strings.
        let text = ContactRecordCodec.textFields
        let labeled = ContactRecordCodec.labeledStringFields
        let keys = ContactRecordCodec.recordKeys
        var identifier: Range<Int>?
        var present: UInt64 = 0
        var members = StrictJSONReader.ObjectMembers()
        while let index = try reader.nextMember(of: keys, &members) {
            let bit: UInt64 = 1 << UInt64(index)
            if index == 0 {
                identifier = try reader.unescapedString(nullable: false)
                continue
            }
            let start = count
            if text & bit != 0 {
                // Null is absent (decodeIfPresent) and an empty string left out (`JSONWriter.field`):
                // both come back as at most the two quotes.
                let value = try reader.unescapedString(nullable: true)
                guard value.upperBound - value.lowerBound > 2 else { continue }
                member(index, keys)
                self.members[3 * index + 2] = count - start
                put(input + value.lowerBound, value.upperBound - value.lowerBound)
            } else if labeled & bit != 0 {
                if try reader.consumeNull() { continue }  // decodeIfPresent: null is absent
                var elements = StrictJSONReader.ArrayElements()
                var written = 0
                while try reader.nextElement(&elements) {
                    if written == 0 {
                        member(index, keys)
                        put(0x5B)
                    } else {
                        put(0x2C)
                    }
                    written += 1
                    try labeledString(&reader, input)
                }
                // An empty array is left out, as `JSONWriter.labeledStrings` leaves it out.
                guard written > 0 else { continue }
                put(0x5D)
            } else {
                if try reader.consumeNull() { continue }  // decodeIfPresent: null is absent
                // A field `ContactRecordCodec` reads: the caller decodes this contact.
                throw StrictJSONReader.GiveUp()
            }
            self.members[3 * index] = start
            self.members[3 * index + 1] = count
            present |= bit
        }
        // `readRecord` requires the identifier; an empty one gets a new identifier from the caller,
        // and one beyond ASCII may change under `IdentifierRules.normalized`: both are decoded.
        guard let identifier, identifier.upperBound - identifier.lowerBound > 2 else {
            throw StrictJSONReader.GiveUp()
        }
        var position = identifier.lowerBound + 1
        while position < identifier.upperBound - 1 {
            guard input[position] < 0x80 else { throw StrictJSONReader.GiveUp() }
            position += 1
        }
        return (identifier, present)
    }

    /// `,"key":` of field `index`.
    @_transparent  // inlined even at -Onone: once per field of every contact copied
    private mutating func member(_ index: Int, _ keys: JSONKeyTable) {
        put(0x2C)
        put(0x22)
        put(keys.key(at: index))
        put(0x22)
        put(0x3A)
    }

    /// One element of a labeled-string array, read as `readLabeledStrings` reads it, copied as
    /// `JSONWriter.labeledStrings` writes it: `{"label":…,"value":…}`, the label left out when null
    /// or absent.
    ///
    /// An element written exactly `{"label":…,"value":…}` or `{"value":…,"label":…}` (no white
    /// space: what the store and `JSONEncoder` write) is read by its bytes, value by value; any
    /// other rewinds and is read member by member, which reads the same values from the same bytes
    /// (as `ContactRecordCodec.checkLabeledStrings` does: two `nextMember` calls per phone and
    /// e-mail were a third of a debug import's transcoding of them).
    private mutating func labeledString(_ reader: inout StrictJSONReader, _ input: UnsafePointer<UInt8>) throws {
        var label = 0..<0
        var value: Range<Int>?
        let start = reader.position
        if reader.consumeExactly(#"{"label":"#) {
            label = try reader.unescapedString(nullable: true)
            if reader.consumeExactly(#","value":"#) {
                value = try reader.unescapedString(nullable: false)
                if !reader.consumeExactly("}") { value = nil }
            }
        } else if reader.consumeExactly(#"{"value":"#) {
            value = try reader.unescapedString(nullable: false)
            if reader.consumeExactly(#","label":"#) {
                label = try reader.unescapedString(nullable: true)
                if !reader.consumeExactly("}") { value = nil }
            } else {
                value = nil
            }
        }
        if value == nil {
            reader.rewind(to: start)
            label = 0..<0
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: Self.labeledStringKeys, &members) {
                if index == 0 {
                    label = try reader.unescapedString(nullable: true)
                } else {
                    value = try reader.unescapedString(nullable: false)
                }
            }
        }
        guard let value else { throw StrictJSONReader.GiveUp() }  // readLabeledStrings requires it
        put(0x7B)
        // A null label comes back empty, without quotes, and is left out; an empty one is written.
        if label.upperBound > label.lowerBound {
            put(Self.labelKey.utf8Start, Self.labelKey.utf8CodeUnitCount)
            put(input + label.lowerBound, label.upperBound - label.lowerBound)
            put(0x2C)
        }
        put(Self.valueKey.utf8Start, Self.valueKey.utf8CodeUnitCount)
        put(input + value.lowerBound, value.upperBound - value.lowerBound)
        put(0x7D)
    }

    private static let labelKey: StaticString = #""label":"#
    private static let valueKey: StaticString = #""value":"#

    // MARK: Scratch bytes

    /// Makes room for `more` bytes.
    private mutating func reserve(_ more: Int) {
        guard capacity - count < more else { return }
        var newCapacity = capacity * 2
        while newCapacity - count < more { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: scratch, count: count)
        scratch.deallocate()
        scratch = grown
        capacity = newCapacity
    }

    @_transparent  // inlined even at -Onone: once per quote, colon, comma and bracket copied
    private mutating func put(_ byte: UInt8) {
        if count == capacity { reserve(1) }
        scratch[count] = byte
        count += 1
    }

    @_transparent  // inlined even at -Onone: once per value copied
    private mutating func put(_ start: UnsafeRawPointer, _ length: Int) {
        if capacity - count < length { reserve(length) }
        memcpy(scratch + count, start, length)
        count += length
    }

    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        put(bytes.baseAddress!, bytes.count)
    }
}
