import Foundation

// The JSON bytes in this file are hex literals, not `UInt8(ascii:)`: that initializer is a function
// call in a debug build, once per byte of every contact read or written (7% of a debug import).
// 0x22 "  0x5C \  0x2F /  0x7B {  0x7D }  0x5B [  0x5D ]  0x3A :  0x2C ,  0x2B +  0x2D -  0x2E .
// 0x30 0  0x39 9  0x41 A  0x45 E  0x46 F  0x61 a  0x62 b  0x65 e  0x66 f  0x6E n  0x72 r  0x74 t  0x75 u

/// A JSON reader for the store's own lines that accepts only a strict subset of what Foundation's
/// `JSONDecoder` accepts, and gives up (`StrictJSONReader.GiveUp`) on anything else.
///
/// It is the fast path of `ContactRecordCodec` and `JournalLineCodec`: a line it reads decodes to
/// exactly the value Foundation would produce, and a line it gives up on is decoded again by
/// Foundation, which then produces the value or the very error users have always seen. So being
/// stricter than Foundation costs speed on odd input, never correctness; being more lenient would
/// be a bug, which the differential fuzz test (`StoreCodecDifferentialTests`) looks for.
///
/// What it gives up on: integers with a fraction or exponent (or over 18 digits, checked before they
/// could overflow; `readDouble` reads fractions and exponents), nesting deeper than 32 levels, lone surrogate escapes, invalid UTF-8, raw control characters in
/// strings, duplicate keys it knows, and any value of an unexpected type.
package struct StrictJSONReader {
    /// The input is outside the subset this reader handles; let Foundation decide.
    package struct GiveUp: Error {
        package init() {}
    }

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private(set) var position: Int

    /// A reader over `count` bytes at `base` (which must stay valid while the reader is used).
    init(_ base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
        self.position = 0
    }

    /// The value `read` makes of the whole of `bytes` (only white space may follow it), or nil when
    /// the input is outside what this reader handles: the fast path of every hand-written decoder,
    /// whose callers then let Foundation decide.
    package static func readWhole<T>(
        _ bytes: UnsafeRawBufferPointer, _ read: (inout StrictJSONReader) throws -> T
    ) -> T? {
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        guard let value = try? read(&reader), (try? reader.finish()) != nil else { return nil }
        return value
    }

    // MARK: Structure

    // `@_transparent` on the three tiny helpers below: a debug build (`swift run`) calls them once
    // or more per JSON token, and only transparent functions are inlined at -Onone (issue 44, item 5:
    // the debug import against release). Their bodies are a few comparisons, so inlining costs no size.

    @_transparent
    package mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next significant byte, without consuming it.
    @_transparent
    package mutating func peek() throws -> UInt8 {
        skipWhitespace()
        guard position < end else { throw GiveUp() }
        return base[position]
    }

    @_transparent
    package mutating func expect(_ byte: UInt8) throws {
        guard try peek() == byte else { throw GiveUp() }
        position += 1
    }

    /// Consumes `null` if it comes next.
    @_transparent  // inlined even at -Onone: asked before nearly every value of every contact read
    package mutating func consumeNull() throws -> Bool {
        guard try peek() == 0x6E else { return false }
        try literal("null")
        return true
    }

    /// Consumes `text` if the input at `position` is exactly its bytes, and says whether it did: no
    /// white space is skipped and nothing checked but the bytes. For a reader that tries the form
    /// its own writer uses first, and reads the value the general way (``rewind(to:)``) otherwise.
    package mutating func consumeExactly(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard end - position >= count, memcmp(base + position, text.utf8Start, count) == 0 else { return false }
        position += count
        return true
    }

    /// Moves back to `start`, a position this reader was at: what it read since is read again.
    package mutating func rewind(to start: Int) {
        precondition(start >= 0 && start <= position, "a reader rewinds only to where it was")
        position = start
    }

    private mutating func literal(_ text: StaticString) throws {
        let count = text.utf8CodeUnitCount
        guard end - position >= count, memcmp(base + position, text.utf8Start, count) == 0 else { throw GiveUp() }
        position += count
    }

    /// Reads an object whose keys are those of `keys`: calls `body` with each key's index in the
    /// table, skips keys the table does not know, and gives up on a key given twice (Foundation
    /// keeps the first of two equal keys; such a line is left to it).
    ///
    /// The hot readers (a contact, its phones and e-mails, a journal line) use ``nextMember(of:_:)``
    /// in a loop of their own instead: a debug build (`swift run`) pays for a closure call, and for
    /// zeroing the closure's frame, on every key of every contact read.
    package mutating func readObject(keys: JSONKeyTable, _ body: (inout StrictJSONReader, Int) throws -> Void) throws {
        var members = ObjectMembers()
        while let index = try nextMember(of: keys, &members) {
            try body(&self, index)
        }
    }

    /// Where a reader is in an object read member by member (``nextMember(of:_:)``).
    package struct ObjectMembers {
        /// The table indexes of the keys read so far, one bit each.
        fileprivate var seen: UInt64 = 0
        /// Where the next key is looked for first: the store writes its keys in table order.
        fileprivate var next = 0
        /// Whether the opening brace was read.
        fileprivate var started = false
        /// Whether a key the table does not know was skipped: a reader that must refuse other keys
        /// (as `readObject` with a closure that gives up on them) asks this once the object is read.
        package fileprivate(set) var skippedUnknownKey = false

        package init() {}
    }

    /// The object's next known key, as its index in `keys`, or nil past the closing brace: the
    /// caller reads the key's value, then asks again. The first call reads the opening brace; keys
    /// the table does not know are skipped (their values checked), a key given twice gives up.
    ///
    /// Written `while let index = try reader.nextMember(of: keys, &members) { … }`, an object is read
    /// without a closure call per key (``readObject(keys:_:)`` is that loop). Not to be asked again
    /// once it answered nil.
    package mutating func nextMember(of keys: JSONKeyTable, _ members: inout ObjectMembers) throws -> Int? {
        if !members.started {
            members.started = true
            try expect(0x7B)
            if try peek() == 0x7D {
                position += 1
                return nil
            }
        } else if try !memberFollows() {
            return nil
        }
        while true {
            // A key equal to one of the table's (valid UTF-8 without a quote, backslash or control
            // byte) needs no byte-by-byte check: it is the very key a full check would read. The
            // table is searched from the key after the last one found.
            // The key as a length from `position`, not a buffer: a debug build calls a buffer's
            // `count` and `baseAddress`, three times per key.
            let length = try keyLengthUpToQuote()
            if let index = keys.index(ofKeyAt: base + position, length: length, from: members.next) {
                // `finishKey(key, checked: true)`, written out: one call fewer per key in a debug build.
                position += length + 1
                try expect(0x3A)
                guard members.seen & (1 << index) == 0 else { throw GiveUp() }
                members.seen |= 1 << index
                members.next = index + 1
                return index
            }
            try finishKey(UnsafeRawBufferPointer(start: base + position, count: length), checked: false)
            members.skippedUnknownKey = true
            try skipValue()
            guard try memberFollows() else { return nil }
        }
    }

    /// Reads an object, calling `body` with each key's bytes (keys with escapes are given up on).
    package mutating func readObject(_ body: (inout StrictJSONReader, UnsafeRawBufferPointer) throws -> Void) throws {
        try expect(0x7B)
        if try peek() == 0x7D {
            position += 1
            return
        }
        repeat {
            let key = try readKey()
            try body(&self, key)
        } while try memberFollows()
    }

    /// An object member's key and the colon after it: the key's bytes (escapes are given up on).
    private mutating func readKey() throws -> UnsafeRawBufferPointer {
        let key = try keyUpToQuote()
        try finishKey(key, checked: false)
        return key
    }

    /// The bytes from an opening quote (consumed) up to the next quote (found with `memchr`, not a
    /// byte loop: a debug build pays several operations per byte of a loop), not yet checked.
    @_transparent  // inlined even at -Onone: once per key of every object read
    private mutating func keyUpToQuote() throws -> UnsafeRawBufferPointer {
        let length = try keyLengthUpToQuote()
        return UnsafeRawBufferPointer(start: base + position, count: length)
    }

    /// ``keyUpToQuote()``'s length: the key's bytes are `length` from `position`.
    @_transparent  // inlined even at -Onone: once per key of every object read
    private mutating func keyLengthUpToQuote() throws -> Int {
        try expect(0x22)
        guard position < end, let quote = memchr(base + position, 0x22, end - position) else { throw GiveUp() }
        return UnsafeRawPointer(base + position).distance(to: quote)
    }

    /// Moves past `key` (from ``keyUpToQuote()``), its closing quote and the colon; unless
    /// `checked`, first gives up on a key with an escape or a control byte, or that is not UTF-8.
    private mutating func finishKey(_ key: UnsafeRawBufferPointer, checked: Bool) throws {
        if !checked {
            let start = position
            let stop = position + key.count
            var ascii = true
            var index = start
            while index < stop {
                let byte = base[index]
                guard byte != 0x5C, byte >= 0x20 else { throw GiveUp() }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            // A key Foundation cannot read as UTF-8 makes the line invalid, known key or not.
            if !ascii { try checkUTF8(from: start, count: key.count) }
        }
        position += key.count + 1
        try expect(0x3A)
    }

    /// After an object member's value: true past a comma (another member follows), false past the
    /// closing brace.
    @_transparent  // inlined even at -Onone: once per key of every object read
    private mutating func memberFollows() throws -> Bool {
        switch try peek() {
        case 0x2C:
            position += 1
            return true
        case 0x7D:
            position += 1
            return false
        default: throw GiveUp()
        }
    }

    /// Reads an array, calling `body` once per element.
    package mutating func readArray(_ body: (inout StrictJSONReader) throws -> Void) throws {
        var elements = ArrayElements()
        while try nextElement(&elements) {
            try body(&self)
        }
    }

    /// Where a reader is in an array read element by element (``nextElement(_:)``).
    package struct ArrayElements {
        /// Whether the opening bracket was read.
        fileprivate var started = false

        package init() {}
    }

    /// Whether another element of the array follows (the caller then reads it, and asks again);
    /// false past the closing bracket. The first call reads the opening bracket. Written
    /// `while try reader.nextElement(&elements) { … }`: an array without a closure call per element.
    package mutating func nextElement(_ elements: inout ArrayElements) throws -> Bool {
        if !elements.started {
            elements.started = true
            try expect(0x5B)
            if try peek() == 0x5D {
                position += 1
                return false
            }
            return true
        }
        switch try peek() {
        case 0x2C:
            position += 1
            return true
        case 0x5D:
            position += 1
            return false
        default: throw GiveUp()
        }
    }

    /// Only whitespace may follow the top-level value.
    package mutating func finish() throws {
        skipWhitespace()
        guard position == end else { throw GiveUp() }
    }

    // MARK: Values

    /// A JSON string (not null).
    package mutating func readString() throws -> String {
        try expect(0x22)
        let start = position
        guard let ascii = try scanToClosingQuote() else { return try readEscapedString(from: start) }
        let bytes = UnsafeBufferPointer(start: base + start, count: position - 1 - start)
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw GiveUp() }
        return text
    }

    /// The loop of `readString`, `skipString` and `unescapedString`: moves through a string's content
    /// (the opening quote already read) to its closing quote, which it consumes, and answers whether
    /// the content is all ASCII; or stops at the first backslash and answers nil, `position` on it.
    /// A control byte gives up. Transparent: inlined into those three even in a debug build, which
    /// inlines it only into callers in this file.
    @_transparent
    private mutating func scanToClosingQuote() throws -> Bool? {
        var ascii = true
        skipPlainASCIIWords()
        while position < end {
            let byte = base[position]
            if byte == 0x22 {
                position += 1
                return ascii
            }
            if byte == 0x5C { return nil }
            guard byte >= 0x20 else { throw GiveUp() }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        throw GiveUp()
    }

    /// Gives up unless the `count` bytes at `start`, which hold some non-ASCII, are UTF-8.
    @_transparent
    private func checkUTF8(from start: Int, count: Int) throws {
        guard String(validating: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self) != nil else {
            throw GiveUp()
        }
    }

    /// Reads past a JSON string (not null), checking it exactly as `readString` does, without
    /// making a `String` of it: what checking a line before its bytes are copied needs (compaction).
    package mutating func skipString() throws {
        try expect(0x22)
        let start = position
        guard let ascii = try scanToClosingQuote() else {
            _ = try readEscapedString(from: start)
            return
        }
        if !ascii { try checkUTF8(from: start, count: position - 1 - start) }
    }

    /// `consumeNull`, else `skipString`, in one call: a debug build inlines a transparent helper
    /// only into callers in its own file, so the readers of contacts (`ContactRecordCodec`) paid two
    /// calls for each optional string they check.
    package mutating func skipStringOrNull() throws {
        if try peek() == 0x6E {
            try literal("null")
            return
        }
        try skipString()
    }

    /// Reads past a JSON string, checking it exactly as `readString` does, and answers the offsets
    /// of its quotes, both included; with `nullable`, reads past `null` too (as `consumeNull` does)
    /// and answers an empty range. Gives up on a string with an escape: one without is written back
    /// by `JSONWriter.string` byte for byte (this reader refuses raw control bytes), so a transcoder
    /// copies its range instead of making a `String` to write (`ContactTranscoder`). One call per
    /// value: a debug build inlines a transparent helper only into callers in its own file.
    package mutating func unescapedString(nullable: Bool) throws -> Range<Int> {
        if nullable, try peek() == 0x6E {
            try literal("null")
            return position..<position
        }
        try expect(0x22)
        let start = position
        guard let ascii = try scanToClosingQuote() else { throw GiveUp() }
        if !ascii { try checkUTF8(from: start, count: position - 1 - start) }
        return (start - 1)..<position
    }

    /// Moves past whole 8-byte words of string content in which no byte is a quote, a backslash,
    /// a control byte or non-ASCII (the byte loop after it then reads the rest exactly as before).
    ///
    /// A debug build (`swift run`) runs a byte loop at several operations per byte; this tests
    /// eight at once with the usual bit tricks on a word copied with `memcpy`: for a byte `b` of
    /// the word `x`, the high bit of `(x - 0x01…) & ~x` is set for some byte exactly when some
    /// byte is zero, and `(x - 0x20…) & ~x` when some byte is below 0x20.
    @_transparent
    mutating func skipPlainASCIIWords() {
        var word: UInt64 = 0
        while end - position >= 8 {
            memcpy(&word, base + position, 8)
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special =
                ((quote &- 0x0101_0101_0101_0101) & ~quote) | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
                | ((word &- 0x2020_2020_2020_2020) & ~word) | word
            if special & 0x8080_8080_8080_8080 != 0 { return }
            position += 8
        }
    }

    /// The slow half of `readString`: the string holds escapes.
    private mutating func readEscapedString(from start: Int) throws -> String {
        var bytes = [UInt8](UnsafeBufferPointer(start: base + start, count: position - start))
        while position < end {
            let byte = base[position]
            position += 1
            switch byte {
            case 0x22:
                guard let text = String(validating: bytes, as: UTF8.self) else { throw GiveUp() }
                return text
            case 0x5C:
                guard position < end else { throw GiveUp() }
                let escape = base[position]
                position += 1
                switch escape {
                case 0x22, 0x5C, 0x2F: bytes.append(escape)
                case 0x62: bytes.append(0x08)
                case 0x66: bytes.append(0x0C)
                case 0x6E: bytes.append(0x0A)
                case 0x72: bytes.append(0x0D)
                case 0x74: bytes.append(0x09)
                case 0x75:
                    var scalar = try readHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard end - position >= 6, base[position] == 0x5C,
                            base[position + 1] == 0x75
                        else { throw GiveUp() }
                        position += 2
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw GiveUp() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw GiveUp()
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw GiveUp() }
                    bytes.append(contentsOf: String(Character(unicode)).utf8)
                default: throw GiveUp()
                }
            default:
                guard byte >= 0x20 else { throw GiveUp() }
                bytes.append(byte)
            }
        }
        throw GiveUp()
    }

    private mutating func readHex4() throws -> UInt32 {
        guard end - position >= 4 else { throw GiveUp() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            position += 1
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: throw GiveUp()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// An integer without fraction or exponent, at most 18 digits.
    package mutating func readInt() throws -> Int {
        _ = try peek()
        var negative = false
        if base[position] == 0x2D {
            negative = true
            position += 1
        }
        let start = position
        var value = 0
        while position < end, base[position] >= 0x30, base[position] <= 0x39 {
            // Checked before the multiplication: 19 digits can overflow `Int`, and a trap here would crash
            // every reader of a store line someone wrote by hand (Foundation decides such numbers).
            guard position - start < Self.maximumIntegerDigits else { throw GiveUp() }
            value = value * 10 + Int(base[position] - 0x30)
            position += 1
        }
        let digits = position - start
        guard digits > 0, !(digits > 1 && base[start] == 0x30) else { throw GiveUp() }
        // A fraction, an exponent or any other byte glued to the number is left to Foundation.
        try expectNumberEnd()
        return negative ? -value : value
    }

    /// What may follow a number: the end, a separator or white space; anything else glued to it
    /// makes the number one this reader does not handle.
    private func expectNumberEnd() throws {
        guard position < end else { return }
        switch base[position] {
        case 0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D: return
        default: throw GiveUp()
        }
    }

    /// A number as `Double`: JSON's grammar exactly (sign, digits without a leading zero, fraction,
    /// exponent), converted as Foundation converts it (correctly rounded); gives up on anything else.
    package mutating func readDouble() throws -> Double {
        _ = try peek()
        let start = position
        func digits() -> Int {
            let from = position
            while position < end, base[position] >= 0x30, base[position] <= 0x39 {
                position += 1
            }
            return position - from
        }
        if base[position] == 0x2D { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0, !(integerDigits > 1 && base[integerStart] == 0x30) else {
            throw GiveUp()
        }
        if position < end, base[position] == 0x2E {
            position += 1
            guard digits() > 0 else { throw GiveUp() }
        }
        if position < end, base[position] == 0x65 || base[position] == 0x45 {
            position += 1
            if position < end, base[position] == 0x2B || base[position] == 0x2D {
                position += 1
            }
            guard digits() > 0 else { throw GiveUp() }
        }
        try expectNumberEnd()
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw GiveUp() }
        return value
    }

    package mutating func readBool() throws -> Bool {
        switch try peek() {
        case 0x74:
            try literal("true")
            return true
        case 0x66:
            try literal("false")
            return false
        default: throw GiveUp()
        }
    }

    /// The most digits `readInt` reads (every 18-digit number fits in `Int`).
    static let maximumIntegerDigits = 18

    /// The deepest nesting `skipValue` follows. The store's own lines nest three levels; deeper input
    /// is left to Foundation, whose parser refuses it with an error instead of exhausting the stack.
    static let maximumSkipDepth = 32

    /// Skips any JSON value, checking it as strictly as the readers above.
    package mutating func skipValue() throws {
        try skipValue(depth: 0)
    }

    private mutating func skipValue(depth: Int) throws {
        guard depth < Self.maximumSkipDepth else { throw GiveUp() }
        switch try peek() {
        case 0x7B: try readObject { reader, _ in try reader.skipValue(depth: depth + 1) }
        case 0x5B: try readArray { try $0.skipValue(depth: depth + 1) }
        case 0x22: _ = try readString()
        case 0x74, 0x66: _ = try readBool()
        case 0x6E: _ = try consumeNull()
        default: _ = try readInt()
        }
    }

    /// The raw bytes of the next value (skipped and checked), as offsets into the input.
    package mutating func valueRange() throws -> Range<Int> {
        skipWhitespace()
        let start = position
        try skipValue()
        return start..<position
    }
}

// Here, not in JSONKeyTable.swift: a debug build compiles each file apart, and inlines a transparent
// function only into callers in the same file; `nextMember` asks once per key of every object read.
extension JSONKeyTable {
    /// ``index(of:)``, comparing index `first` first (then the keys of the same length): a reader
    /// that expects the keys in the table's order asks for the one after the last it found.
    ///
    /// Keys are distinct, so the order of the comparisons changes the cost, never the answer. The
    /// store writes its keys in table order (the first comparison finds them); an import file
    /// written by `JSONEncoder` has them in any order, and walking the whole table for each key
    /// cost a debug build several operations per entry passed, for every key of every contact.
    package func index(of key: UnsafeRawBufferPointer, from first: Int) -> Int? {
        guard let start = key.baseAddress else { return index(ofKeyAt: nil, length: 0, from: first) }
        return index(ofKeyAt: start.assumingMemoryBound(to: UInt8.self), length: key.count, from: first)
    }

    /// ``index(of:from:)`` of the `length` bytes at `start` (nil only when `length` is 0).
    @_transparent  // inlined even at -Onone: `nextMember` asks once per key of every object read
    func index(ofKeyAt start: UnsafePointer<UInt8>?, length: Int, from first: Int) -> Int? {
        guard length <= maximumLength else { return nil }
        if first >= 0, first < count, starts[first + 1] - starts[first] == length,
            length == 0 || memcmp(bytes + starts[first], start!, length) == 0
        {
            return first
        }
        var index = firstOfLength[length]
        while index >= 0 {
            if length == 0 || memcmp(bytes + starts[index], start!, length) == 0 { return index }
            index = nextOfLength[index]
        }
        return nil
    }
}
