import Foundation

// The JSON bytes in this file are hex literals, not `UInt8(ascii:)`: that initializer is a function
// call in a debug build, once per byte of every contact read or written (7% of a debug import).
// 0x22 "  0x5C \  0x2F /  0x7B {  0x7D }  0x5B [  0x5D ]  0x3A :  0x2C ,  0x2B +  0x2D -  0x2E .
// 0x30 0  0x39 9  0x41 A  0x45 E  0x46 F  0x61 a  0x62 b  0x65 e  0x66 f  0x6E n  0x72 r  0x74 t  0x75 u

extension ContactRecordCodec {
    // MARK: Encoding

    /// One contact as JSON (no newline).
    package static func encode(_ record: ContactRecord) throws -> Data {
        var writer = JSONWriter()
        try encode(record, into: &writer)
        return writer.data
    }

    /// Appends one contact's JSON to `writer`: the bytes it was read from while it still holds
    /// exactly what they say (``ContactRecord/verbatim``), else its fields encoded.
    static func encode(_ record: ContactRecord, into writer: inout JSONWriter) throws {
        if let bytes = record.verbatim.bytes {
            writer.append(bytes)
            return
        }
        guard isEncodable(record) else {
            // Foundation's encoder throws the error `ContactRecord.encode(to:)` defines for this record.
            writer.append(try LineCoding.encoder().encode(record))
            return
        }
        writer.open()
        // An index loop, not `for field in recordFields`: a debug build runs that iterator generically.
        // The values come from one copy of the stored fields, not through the record's getters.
        let stored = record.fields
        let fields = recordFields
        var index = 0
        while index < fields.count {
            write(fields[index], of: stored, to: &writer)
            index += 1
        }
        writer.close()
    }

    /// Writes one field of `record` (nothing when it is empty or absent), as Foundation's encoder
    /// writes it. Exhaustive on purpose (no `default:`): a field added to the table is written here
    /// or the build fails.
    private static func write(
        _ field: ContactRecord.Field, of record: ContactRecord.Fields, to writer: inout JSONWriter
    ) {
        switch field {
        case .identifier: writer.field("identifier", record.identifier, always: true)
        case .namePrefix: writer.field("namePrefix", record.namePrefix)
        case .givenName: writer.field("givenName", record.givenName)
        case .middleName: writer.field("middleName", record.middleName)
        case .familyName: writer.field("familyName", record.familyName)
        case .nameSuffix: writer.field("nameSuffix", record.nameSuffix)
        case .nickname: writer.field("nickname", record.nickname)
        case .organizationName: writer.field("organizationName", record.organizationName)
        case .departmentName: writer.field("departmentName", record.departmentName)
        case .jobTitle: writer.field("jobTitle", record.jobTitle)
        case .phoneNumbers: writer.labeledStrings("phoneNumbers", record.phoneNumbers)
        case .emailAddresses: writer.labeledStrings("emailAddresses", record.emailAddresses)
        case .postalAddresses:
            guard !record.postalAddresses.isEmpty else { return }
            writer.array("postalAddresses", record.postalAddresses) { writer, address in
                writer.open()
                if let label = address.label { writer.field("label", label, always: true) }
                writer.field("street", address.street)
                writer.field("subLocality", address.subLocality)
                writer.field("city", address.city)
                writer.field("subAdministrativeArea", address.subAdministrativeArea)
                writer.field("state", address.state)
                writer.field("postalCode", address.postalCode)
                writer.field("country", address.country)
                writer.field("isoCountryCode", address.isoCountryCode)
                writer.close()
            }
        case .urlAddresses: writer.labeledStrings("urlAddresses", record.urlAddresses)
        case .note: writer.field("note", record.note)
        case .birthday:
            if let birthday = record.birthday { writer.field("birthday", birthday, always: true) }
        case .imageData:
            if let imageData = record.imageData {
                writer.field("imageData", imageData.base64EncodedString(), always: true)
            }
        case .contactType:
            if let contactType = record.contactType, contactType != "person" {
                writer.field("contactType", contactType, always: true)
            }
        case .previousFamilyName: writer.field("previousFamilyName", record.previousFamilyName)
        case .phoneticGivenName: writer.field("phoneticGivenName", record.phoneticGivenName)
        case .phoneticMiddleName: writer.field("phoneticMiddleName", record.phoneticMiddleName)
        case .phoneticFamilyName: writer.field("phoneticFamilyName", record.phoneticFamilyName)
        case .phoneticOrganizationName: writer.field("phoneticOrganizationName", record.phoneticOrganizationName)
        case .nonGregorianBirthday:
            guard let date = record.nonGregorianBirthday else { return }
            writer.key("nonGregorianBirthday")
            writer.open()
            writer.field("calendar", date.calendar, always: true)
            if let era = date.era { writer.field("era", era) }
            if let year = date.year { writer.field("year", year) }
            writer.field("month", date.month)
            writer.field("day", date.day)
            if let isLeapMonth = date.isLeapMonth { writer.field("isLeapMonth", isLeapMonth) }
            writer.close()
        case .dates: writer.labeledStrings("dates", record.dates)
        case .contactRelations: writer.labeledStrings("contactRelations", record.contactRelations)
        case .socialProfiles:
            guard !record.socialProfiles.isEmpty else { return }
            writer.array("socialProfiles", record.socialProfiles) { writer, profile in
                writer.open()
                if let label = profile.label { writer.field("label", label, always: true) }
                writer.field("urlString", profile.urlString)
                writer.field("username", profile.username)
                writer.field("userIdentifier", profile.userIdentifier)
                writer.field("service", profile.service)
                writer.close()
            }
        case .instantMessageAddresses:
            guard !record.instantMessageAddresses.isEmpty else { return }
            writer.array("instantMessageAddresses", record.instantMessageAddresses) { writer, address in
                writer.open()
                if let label = address.label { writer.field("label", label, always: true) }
                writer.field("username", address.username)
                writer.field("service", address.service)
                writer.close()
            }
        }
    }

    /// Whether `ContactRecord.encode(to:)` accepts the record (the checks it makes before writing).
    static func isEncodable(_ record: ContactRecord) -> Bool {
        // The bytes a record was read from passed the strict reader, which refuses all of the below;
        // and a record that defers decoding is asked without decoding it.
        if record.verbatim.bytes != nil { return true }
        if let birthday = record.birthday, BirthdayFormat.parse(birthday) == nil { return false }
        if let type = record.contactType, !ContactRecord.contactTypes.contains(type) { return false }
        if record.nonGregorianBirthday?.problem != nil { return false }
        // An index loop, not `allSatisfy`: a generic call per contact in a debug build.
        let dates = record.dates
        var index = 0
        while index < dates.count {
            if BirthdayFormat.parse(dates[index].value) == nil { return false }
            index += 1
        }
        return true
    }
}

/// Appends JSON to a byte buffer, escaping strings as Foundation's encoder does (slashes unescaped).
///
/// The bytes live in memory the writer owns (`malloc`, grown with `realloc`), written with `memcpy`,
/// not in an `[UInt8]`: a debug build (`swift run`) runs `Array.append(contentsOf:)` unspecialized,
/// asking the runtime for generic metadata on every key and value of every contact written (the
/// import's journal lines cost six times their release time; issue 44, item 5). Non-copyable, so
/// the memory has one owner and is freed with it.
package struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    package private(set) var count = 0
    private var needsComma = false

    /// An empty writer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far (valid until the next write).
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// The bytes written, copied.
    package var data: Data { Data(bytes: base, count: count) }

    /// Forgets the bytes written, keeping the memory: a writer reused for one value after another.
    package mutating func removeAll() {
        count = 0
        needsComma = false
    }

    /// Makes room for `more` bytes.
    private mutating func reserve(_ more: Int) {
        guard capacity - count < more else { return }
        var newCapacity = capacity * 2
        while newCapacity - count < more { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Appends one byte as it is. `@_transparent`: a debug build inlines nothing else, and this
    /// runs for every quote, colon, comma and brace written.
    @_transparent
    package mutating func byte(_ value: UInt8) {
        if count == capacity { reserve(1) }
        base[count] = value
        count += 1
    }

    /// Lets `body` write at most `maxCount` bytes straight into the writer's memory, from its end;
    /// `body` returns how many it wrote. For a line of a fixed shape written in one call (a debug
    /// build makes every call it is written with, once per line).
    package mutating func write(atMost maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - count < maxCount { reserve(maxCount) }
        let written = body(base + count)
        precondition(written >= 0 && written <= maxCount, "wrote past the room asked for")
        count += written
    }

    /// Appends `length` bytes at `start` as they are.
    package mutating func append(_ start: UnsafeRawPointer, count length: Int) {
        guard length > 0 else { return }
        // Asked here, not only inside: a debug build makes every call it is written with.
        if capacity - count < length { reserve(length) }
        memcpy(base + count, start, length)
        count += length
    }

    /// Appends `bytes` as they are.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        append(start, count: bytes.count)
    }

    /// Appends `bytes` as they are.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `bytes` as they are.
    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `data` as it is.
    package mutating func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }

    /// Appends `text`'s UTF-8 as it is (no quotes, no escaping: a number's text).
    package mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    package mutating func open() {
        byte(0x7B)
        needsComma = false
    }

    package mutating func close() {
        byte(0x7D)
        needsComma = true
    }

    package mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        // One check for room, then the bytes stored directly: `,"name":`.
        reserve(length + 4)
        if needsComma {
            base[count] = 0x2C
            count += 1
        }
        base[count] = 0x22
        memcpy(base + count + 1, name.utf8Start, length)
        base[count + 1 + length] = 0x22
        base[count + 2 + length] = 0x3A
        count += length + 3
        needsComma = true
    }

    /// A string field; empty strings are omitted unless `always`.
    package mutating func field(_ name: StaticString, _ value: String, always: Bool = false) {
        guard always || !value.isEmpty else { return }
        key(name)
        string(value)
    }

    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        integer(value)
    }

    /// Appends `value` in decimal, the text `String(value)` makes (a minus sign, then the digits
    /// without leading zeros), written digit by digit into the memory.
    ///
    /// Not `raw(String(value))`: a debug build runs `String`'s generic integer initializer
    /// unspecialized and `withUTF8` through a closure, for the `seq` and `count` of every journal
    /// line an import writes.
    package mutating func integer(_ value: Int) {
        // A sign and 20 digits hold any `Int`.
        if capacity - count < 21 { reserve(21) }
        count += Self.writeDecimal(value, to: base + count)
    }

    /// Writes `value` in decimal at `out`, as `String(value)` spells it (at most 20 bytes: a sign and
    /// 19 digits), and returns how many bytes it wrote: ``integer(_:)``'s digits, for a writer of a
    /// line of fixed shape (``write(atMost:_:)``). The 21 bytes from `out` must be writable: the
    /// digits are made back to front at their end, then moved to the start, one division by ten a
    /// digit (a debug build divides, where a release build multiplies).
    package static func writeDecimal(_ value: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value < 0 ? 0 &- UInt(bitPattern: value) : UInt(bitPattern: value)
        var written = 0
        if value < 0 {
            out[0] = 0x2D  // -
            written = 1
        }
        let end = out + 21
        var position = end
        repeat {
            let quotient = magnitude / 10
            position -= 1
            position[0] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude &- quotient &* 10)
            magnitude = quotient
        } while magnitude != 0
        let digits = position.distance(to: end)
        memmove(out + written, position, digits)
        return written + digits
    }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        let text: StaticString = value ? "true" : "false"
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    package mutating func labeledStrings(_ name: StaticString, _ values: [ContactRecord.LabeledString]) {
        guard !values.isEmpty else { return }
        // Not through the generic `array`: phones and e-mails are most contacts' arrays, and a debug
        // build looks up `[T]`'s metadata at run time on every generic call.
        key(name)
        byte(0x5B)
        var index = 0
        while index < values.count {
            if index > 0 { byte(0x2C) }
            open()
            if let label = values[index].label { field("label", label, always: true) }
            field("value", values[index].value, always: true)
            close()
            index += 1
        }
        byte(0x5D)
        needsComma = true
    }

    package mutating func array<T>(_ name: StaticString, _ values: [T], _ element: (inout JSONWriter, T) -> Void) {
        key(name)
        byte(0x5B)
        needsComma = false
        for value in values {
            if needsComma { byte(0x2C) }
            element(&self, value)
            needsComma = true
        }
        byte(0x5D)
        needsComma = true
    }

    /// A quoted, escaped string.
    package mutating func string(_ value: String) {
        byte(0x22)
        var value = value
        value.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return }
            // An index loop, not `enumerated()`: a debug build asks the runtime for generic metadata
            // at each step of that iterator.
            let count = bytes.count
            var clean = 0
            var index = 0
            while index < count {
                let byte = start[index]
                if byte >= 0x20, byte != 0x22, byte != 0x5C {
                    index += 1
                    continue
                }
                append(start + clean, count: index - clean)
                clean = index + 1
                index += 1
                self.byte(0x5C)
                switch byte {
                case 0x22: self.byte(0x22)
                case 0x5C: self.byte(0x5C)
                case 0x0A: self.byte(0x6E)
                case 0x0D: self.byte(0x72)
                case 0x09: self.byte(0x74)
                case 0x08: self.byte(0x62)
                case 0x0C: self.byte(0x66)
                default:
                    // \u00XX, lowercase hex (0x61 a), as Foundation writes it.
                    self.byte(0x75)
                    self.byte(0x30)
                    self.byte(0x30)
                    self.byte(Self.hexDigit(byte >> 4))
                    self.byte(Self.hexDigit(byte & 0xF))
                }
            }
            append(start + clean, count: count - clean)
        }
        byte(0x22)
    }

    /// The lowercase hex digit of `value` (0...15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }
}
