import Foundation

// The JSON bytes in this file are hex literals, not `UInt8(ascii:)`: that initializer is a function
// call in a debug build, once per byte of every contact read or written (7% of a debug import).
// 0x22 "  0x5C \  0x2F /  0x7B {  0x7D }  0x5B [  0x5D ]  0x3A :  0x2C ,  0x2B +  0x2D -  0x2E .
// 0x30 0  0x39 9  0x41 A  0x45 E  0x46 F  0x61 a  0x62 b  0x65 e  0x66 f  0x6E n  0x72 r  0x74 t  0x75 u

extension ContactRecordCodec {
    // MARK: Encoding

    /// One contact as JSON (no newline).
    package static func encode(_ record: ContactRecord) throws -> Data {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        try encode(record, into: &buffer)
        return Data(buffer)
    }

    /// Appends one contact's JSON to `buffer`: the bytes it was read from while it still holds
    /// exactly what they say (``ContactRecord/verbatim``), else its fields encoded.
    static func encode(_ record: ContactRecord, into buffer: inout [UInt8]) throws {
        if let bytes = record.verbatim.bytes {
            buffer.append(contentsOf: bytes)
            return
        }
        guard isEncodable(record) else {
            // Foundation's encoder throws the error `ContactRecord.encode(to:)` defines for this record.
            buffer.append(contentsOf: try LineCoding.encoder().encode(record))
            return
        }
        var writer = JSONWriter(buffer: buffer)
        buffer = []
        writer.open()
        for field in recordFields {
            write(field, of: record, to: &writer)
        }
        writer.close()
        buffer = writer.buffer
    }

    /// Writes one field of `record` (nothing when it is empty or absent), as Foundation's encoder
    /// writes it. Exhaustive on purpose (no `default:`): a field added to the table is written here
    /// or the build fails.
    private static func write(_ field: ContactRecord.Field, of record: ContactRecord, to writer: inout JSONWriter) {
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
package struct JSONWriter {
    package var buffer: [UInt8]
    private var needsComma = false

    package init(buffer: [UInt8]) {
        self.buffer = buffer
    }

    package mutating func open() {
        buffer.append(0x7B)
        needsComma = false
    }

    package mutating func close() {
        buffer.append(0x7D)
        needsComma = true
    }

    package mutating func key(_ name: StaticString) {
        if needsComma { buffer.append(0x2C) }
        buffer.append(0x22)
        buffer.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        // Two appends, not an array literal: that would allocate an array for every key written.
        buffer.append(0x22)
        buffer.append(0x3A)
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
        buffer.append(contentsOf: String(value).utf8)
    }

    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        buffer.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func labeledStrings(_ name: StaticString, _ values: [ContactRecord.LabeledString]) {
        guard !values.isEmpty else { return }
        // Not through the generic `array`: phones and e-mails are most contacts' arrays, and a debug
        // build looks up `[T]`'s metadata at run time on every generic call.
        key(name)
        buffer.append(0x5B)
        var index = 0
        while index < values.count {
            if index > 0 { buffer.append(0x2C) }
            open()
            if let label = values[index].label { field("label", label, always: true) }
            field("value", values[index].value, always: true)
            close()
            index += 1
        }
        buffer.append(0x5D)
        needsComma = true
    }

    package mutating func array<T>(_ name: StaticString, _ values: [T], _ element: (inout JSONWriter, T) -> Void) {
        key(name)
        buffer.append(0x5B)
        needsComma = false
        for value in values {
            if needsComma { buffer.append(0x2C) }
            element(&self, value)
            needsComma = true
        }
        buffer.append(0x5D)
        needsComma = true
    }

    /// A quoted, escaped string.
    package mutating func string(_ value: String) {
        buffer.append(0x22)
        var value = value
        value.withUTF8 { bytes in
            // An index loop, not `enumerated()`: a debug build asks the runtime for generic metadata
            // at each step of that iterator.
            let count = bytes.count
            var clean = 0
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte >= 0x20, byte != 0x22, byte != 0x5C {
                    index += 1
                    continue
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                clean = index + 1
                index += 1
                switch byte {
                case 0x22: buffer.append(contentsOf: [0x5C, 0x22])
                case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
                case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
                case 0x08: buffer.append(contentsOf: [0x5C, 0x62])
                case 0x0C: buffer.append(contentsOf: [0x5C, 0x66])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    buffer.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        }
        buffer.append(0x22)
    }
}
