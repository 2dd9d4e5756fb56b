import Foundation

/// The store's hand-written coder for contact lines: the same JSON as `ContactRecord`'s `Codable`
/// conformance through Foundation, without Foundation's per-value boxing.
///
/// - Decoding takes a fast path (`StrictJSONReader`) for the lines the store writes; anything it
///   does not handle, including every invalid line, is decoded by Foundation instead, so values and
///   error messages are exactly Foundation's.
/// - Encoding writes the keys in the table's order (`ContactRecord.Field`), empty values omitted, as `init(from:)` reads
///   them; a record Foundation's coding refuses (a bad birthday, date, contactType or calendar)
///   is handed to Foundation's encoder, which throws the error users know.
///
/// `StoreCodecDifferentialTests` checks both directions against Foundation on seeded random input.
package enum ContactRecordCodec {
    // MARK: Decoding

    /// Decodes one contact from its JSON bytes.
    package static func decode(_ data: Data) throws -> ContactRecord {
        if let record = data.withUnsafeBytes({ fastDecode($0) }) { return record }
        return try JSONDecoder().decode(ContactRecord.self, from: data)
    }

    /// Decodes one contact from `range` of a raw buffer (a mapped file's line).
    static func decode(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws -> ContactRecord {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if let record = fastDecode(slice) { return record }
        return try JSONDecoder().decode(ContactRecord.self, from: Data(slice))
    }

    /// The fast path alone, for readers of other files with the same contact JSON (an import):
    /// the record, or nil when Foundation must decide — a value it does not handle, invalid JSON, or
    /// a key given twice in one object (Foundation would keep one of them silently).
    package static func decodeIfPlain(_ bytes: UnsafeRawBufferPointer) -> ContactRecord? {
        fastDecode(bytes)
    }

    /// ``decodeIfPlain(_:)``'s answer without the record: the identifier of the contact in `bytes`
    /// exactly when `decodeIfPlain` would decode it, nil when Foundation must decide.
    ///
    /// For a pass that only checks (an import checks every contact before writing any, then decodes
    /// each again to write it): making a record only to drop it was most of that pass's time in a
    /// debug build. `ContactRecordCheckTests` hold it to `decodeIfPlain`.
    package static func identifierIfPlain(_ bytes: UnsafeRawBufferPointer) -> String? {
        // `readWhole(bytes, checkRecord)` written out: the generic `readWhole` runs unspecialized in a
        // debug build (a closure call and run-time metadata for its result), once per contact.
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        guard let identifier = try? checkRecord(&reader), (try? reader.finish()) != nil else { return nil }
        return identifier
    }

    /// The fast path alone: the record, or nil when Foundation must decide.
    ///
    /// `verbatim`: the bytes the record carries (``ContactRecord/verbatim``, `VerbatimJSON(bytes)` or
    /// a shared copy of them), so that writing it unchanged copies them instead of encoding it: for
    /// the records a content page hands on. None by default.
    static func fastDecode(_ bytes: UnsafeRawBufferPointer, keeping verbatim: VerbatimJSON = VerbatimJSON())
        -> ContactRecord?
    {
        guard let fields = fastDecodeFields(bytes) else { return nil }
        return ContactRecord(fields: fields, verbatim: verbatim)
    }

    /// ``fastDecode(_:keeping:)``'s fields, before they are made a record (also for a record that
    /// decodes its fields on first read: ``ContactRecordStorage``).
    static func fastDecodeFields(_ bytes: UnsafeRawBufferPointer) -> ContactRecord.Fields? {
        // `readWhole(bytes, readFields)` written out, as in `identifierIfPlain`.
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        guard let fields = try? readFields(&reader, keeping: allFields), (try? reader.finish()) != nil else {
            return nil
        }
        return fields
    }

    /// The identifier of a contact line, checking the whole line is JSON (what `IdentifierOnly`
    /// decoding through Foundation checks); nil when Foundation must decide.
    static func fastIdentifier(_ bytes: UnsafeRawBufferPointer) -> String? {
        StrictJSONReader.readWhole(bytes, readIdentifierOnly)
    }

    static func readIdentifierOnly(_ reader: inout StrictJSONReader) throws -> String {
        var identifier: String?
        try reader.readObject { reader, key in
            if recordKeys.index(of: key) == 0 {
                guard identifier == nil else { throw StrictJSONReader.GiveUp() }
                identifier = try reader.readString()
            } else {
                try reader.skipValue()
            }
        }
        guard let identifier else { throw StrictJSONReader.GiveUp() }
        return identifier
    }

    /// The fields of the record's table (`ContactRecord.Field`), in the order `recordKeys` numbers them.
    static let recordFields = ContactRecord.Field.allCases
    /// The key table of `recordFields` (index 0 is `identifier`).
    static let recordKeys = JSONKeyTable(recordFields.map(\.stringValue))

    static func readRecord(_ reader: inout StrictJSONReader) throws -> ContactRecord {
        try readRecord(&reader, keeping: allFields)
    }

    /// The fields of one string each (`ContactRecord.Field.Kind.text`), as a mask (``fieldMask(_:)``).
    static let textFields = fieldMask(recordFields.filter { $0.kind == .text })
    /// The fields of labeled strings (`ContactRecord.Field.Kind.labeledStrings`), as a mask.
    static let labeledStringFields = fieldMask(recordFields.filter { $0.kind == .labeledStrings })

    /// Every field of the table, as a mask for ``readRecord(_:keeping:)``.
    static let allFields = UInt64.max

    /// The mask of `fields` for ``readRecord(_:keeping:)``: bit `i` stands for `recordFields[i]`.
    static func fieldMask(_ fields: [ContactRecord.Field]) -> UInt64 {
        var mask: UInt64 = 0
        for field in fields {
            if let index = recordFields.firstIndex(of: field) { mask |= 1 << UInt64(index) }
        }
        return mask
    }

    /// `readRecord`, making only the fields `kept` names (``fieldMask(_:)``) and the identifier: the
    /// others are checked exactly as `checkRecord` checks them, so the same input is accepted, but
    /// left empty. For a reader that needs a few fields of every contact (a compaction deriving the
    /// name index's keys): making each contact's phones and e-mails only to drop them was a tenth of
    /// a debug import's time. `ContactRecordCheckTests` hold it to `readRecord`.
    static func readRecord(_ reader: inout StrictJSONReader, keeping kept: UInt64) throws -> ContactRecord {
        ContactRecord(fields: try readFields(&reader, keeping: kept))
    }

    /// ``readRecord(_:keeping:)``'s fields, before they are made a record.
    static func readFields(_ reader: inout StrictJSONReader, keeping kept: UInt64) throws -> ContactRecord.Fields {
        // The fields are set on a plain struct, not through the record's accessors: each of those makes
        // the storage unique and forgets its bytes, calls a debug build makes for every field read.
        var record = ContactRecord.Fields(identifier: "")
        var hasIdentifier = false
        // The table from a local, not the static: a debug build retains and releases a static array
        // on every access, here once per key.
        let fields = recordFields
        let text = textFields
        let labeled = labeledStringFields
        // A loop, not `readObject(keys:)`'s closure: a debug build zeroes this switch's large frame on
        // every call, once per key of every contact.
        var members = StrictJSONReader.ObjectMembers()
        while let index = try reader.nextMember(of: recordKeys, &members) {
            let field = fields[index]
            if field == .identifier {
                record.identifier = try reader.readString()
                hasIdentifier = true
                continue
            }
            let bit: UInt64 = 1 << UInt64(index)
            if kept & bit == 0, text & bit != 0 {
                try reader.skipStringOrNull()  // as `checkRecord` checks it, in one call
                continue
            }
            if try reader.consumeNull() { continue }  // decodeIfPresent: null is absent
            if kept & bit == 0 {
                if labeled & bit != 0 {
                    try checkLabeledStrings(&reader)
                } else {
                    try checkValue(of: field, &reader)
                }
                continue
            }
            // Exhaustive on purpose: a new field of ContactRecord is read here or the build fails.
            switch field {
            case .identifier: break  // read above
            case .namePrefix: record.namePrefix = try reader.readString()
            case .givenName: record.givenName = try reader.readString()
            case .middleName: record.middleName = try reader.readString()
            case .familyName: record.familyName = try reader.readString()
            case .nameSuffix: record.nameSuffix = try reader.readString()
            case .nickname: record.nickname = try reader.readString()
            case .organizationName: record.organizationName = try reader.readString()
            case .departmentName: record.departmentName = try reader.readString()
            case .jobTitle: record.jobTitle = try reader.readString()
            case .phoneNumbers: record.phoneNumbers = try readLabeledStrings(&reader)
            case .emailAddresses: record.emailAddresses = try readLabeledStrings(&reader)
            case .postalAddresses: record.postalAddresses = try readArray(&reader, readPostalAddress)
            case .urlAddresses: record.urlAddresses = try readLabeledStrings(&reader)
            case .note: record.note = try reader.readString()
            case .birthday: record.birthday = try readBirthday(&reader)
            case .imageData: record.imageData = try readImageData(&reader)
            case .contactType:
                let type = try readContactType(&reader)
                record.contactType = type == "person" ? nil : type
            case .previousFamilyName: record.previousFamilyName = try reader.readString()
            case .phoneticGivenName: record.phoneticGivenName = try reader.readString()
            case .phoneticMiddleName: record.phoneticMiddleName = try reader.readString()
            case .phoneticFamilyName: record.phoneticFamilyName = try reader.readString()
            case .phoneticOrganizationName: record.phoneticOrganizationName = try reader.readString()
            case .nonGregorianBirthday: record.nonGregorianBirthday = try readNonGregorianDate(&reader)
            case .dates: record.dates = try readDates(&reader)
            case .contactRelations: record.contactRelations = try readLabeledStrings(&reader)
            case .socialProfiles: record.socialProfiles = try readArray(&reader, readSocialProfile)
            case .instantMessageAddresses:
                record.instantMessageAddresses = try readArray(&reader, readInstantMessageAddress)
            }
        }
        guard hasIdentifier else { throw StrictJSONReader.GiveUp() }
        return record
    }

    /// Reads past one contact exactly as `readRecord` reads it — accepting the same input, giving up
    /// on the same — without making the record: its identifier only. Compaction checks every
    /// contact it copies this way (a line Foundation would refuse is never copied as it is); making
    /// a million records only to drop them was a fifth of the provider's time after a full sync (`perf`).
    /// `ContactRecordCheckTests` hold it to `readRecord` on random and damaged lines.
    static func checkRecord(_ reader: inout StrictJSONReader) throws -> String {
        var valued: UInt64 = 0
        return try checkRecord(&reader, capturing: 0, into: nil, valued: &valued)
    }

    /// ``checkRecord(_:capturing:into:valued:)`` without the mask of valued fields.
    static func checkRecord(
        _ reader: inout StrictJSONReader, capturing captured: UInt64, into ranges: UnsafeMutablePointer<Int>?
    ) throws -> String {
        var valued: UInt64 = 0
        return try checkRecord(&reader, capturing: captured, into: ranges, valued: &valued)
    }

    /// ``checkRecord(_:)``, which with `captured` (text fields, as a mask: ``fieldMask(_:)``), the range of each such field's
    /// JSON value in the reader's bytes (a string, or `null`) is written to `ranges` — its start at
    /// `ranges[2 * i]`, its end at `ranges[2 * i + 1]` for table index `i`, the start -1 when the
    /// field is absent — for a compaction that derives index keys from them (``FieldKeyDeriver``).
    ///
    /// `valued` gains the bit (``fieldMask(_:)``) of each field other than a text field or a list
    /// of labeled strings that has a value (not null): the birthday, dates and the like.
    static func checkRecord(
        _ reader: inout StrictJSONReader, capturing captured: UInt64, into ranges: UnsafeMutablePointer<Int>?,
        valued: inout UInt64
    ) throws -> String {
        var identifier: String?
        // Locals, read once per contact: a debug build calls a static's accessor (and its
        // once-check) at each read, and retains and releases a static array. The field table is
        // read only for the rare kinds below (index 0 is the identifier: `recordKeys`).
        let keys = recordKeys
        let text = textFields
        let labeled = labeledStringFields
        if let ranges {
            var unset = captured
            while unset != 0 {
                ranges[2 * unset.trailingZeroBitCount] = -1
                unset &= unset - 1
            }
        }
        var members = StrictJSONReader.ObjectMembers()
        while let index = try reader.nextMember(of: keys, &members) {
            let bit: UInt64 = 1 << UInt64(index)
            // The common kinds first, each in one call (see `skipStringOrNull`), not through `checkValue`.
            if text & bit != 0 {
                if captured & bit != 0, let ranges {
                    reader.skipWhitespace()
                    ranges[2 * index] = reader.position
                    try reader.skipStringOrNull()  // decodeIfPresent: null is absent
                    ranges[2 * index + 1] = reader.position
                    continue
                }
                try reader.skipStringOrNull()  // decodeIfPresent: null is absent
                continue
            }
            if index == 0 {
                identifier = try reader.readString()
                continue
            }
            if try reader.consumeNull() { continue }  // decodeIfPresent: null is absent
            if labeled & bit != 0 {
                try checkLabeledStrings(&reader)
                continue
            }
            valued |= bit
            try checkValue(of: recordFields[index], &reader)
        }
        guard let identifier else { throw StrictJSONReader.GiveUp() }
        return identifier
    }

    /// Reads past the value (not null) of `field` as `readRecord` reads it, without making it.
    private static func checkValue(of field: ContactRecord.Field, _ reader: inout StrictJSONReader) throws {
        // Exhaustive on purpose, as in `readRecord`: a new field is checked here or the build fails.
        switch field {
        case .identifier: _ = try reader.readString()
        case .namePrefix, .givenName, .middleName, .familyName, .nameSuffix, .nickname, .organizationName,
            .departmentName, .jobTitle, .note, .previousFamilyName, .phoneticGivenName, .phoneticMiddleName,
            .phoneticFamilyName, .phoneticOrganizationName:
            try reader.skipString()
        case .phoneNumbers, .emailAddresses, .urlAddresses, .contactRelations: try checkLabeledStrings(&reader)
        case .postalAddresses: try checkStringObjects(&reader, keys: postalKeys)
        case .socialProfiles: try checkStringObjects(&reader, keys: socialKeys)
        case .instantMessageAddresses: try checkStringObjects(&reader, keys: instantMessageKeys)
        // Rarer values, read as `readRecord` reads them (their checks are the reading).
        case .birthday: _ = try readBirthday(&reader)
        case .imageData: _ = try readImageData(&reader)
        case .contactType: _ = try readContactType(&reader)
        case .nonGregorianBirthday: _ = try readNonGregorianDate(&reader)
        case .dates: _ = try readDates(&reader)
        }
    }

    private static func readBirthday(_ reader: inout StrictJSONReader) throws -> String {
        let birthday = try reader.readString()
        guard BirthdayFormat.parse(birthday) != nil else { throw StrictJSONReader.GiveUp() }
        return birthday
    }

    private static func readImageData(_ reader: inout StrictJSONReader) throws -> Data {
        guard let data = Data(base64Encoded: try reader.readString()) else { throw StrictJSONReader.GiveUp() }
        return data
    }

    /// The type as written (`person` included), when it is one `ContactRecord` knows.
    private static func readContactType(_ reader: inout StrictJSONReader) throws -> String {
        let type = try reader.readString()
        guard ContactRecord.contactTypes.contains(type) else { throw StrictJSONReader.GiveUp() }
        return type
    }

    private static func readDates(_ reader: inout StrictJSONReader) throws -> [ContactRecord.LabeledString] {
        let dates = try readLabeledStrings(&reader)
        var index = 0
        while index < dates.count {
            guard BirthdayFormat.parse(dates[index].value) != nil else { throw StrictJSONReader.GiveUp() }
            index += 1
        }
        return dates
    }

    /// `readLabeledStrings`' checks without the values: each element an object whose `label` is a
    /// string or null and whose `value` is a string, and is there.
    ///
    /// An element written exactly as the store writes it (`{"label":…,"value":…}`, no white space)
    /// or as `JSONEncoder` may (`{"value":…,"label":…}`) is checked by its bytes, string by string;
    /// anything else, member by member. Both accept the same input: an element the exact form
    /// matches has just those two keys, each read with the check the member loop gives it, and a
    /// string that fails that check fails it in the member loop too. Two `nextMember` calls per
    /// element were a fifth of a debug build's check of a contact (an import checks each twice).
    private static func checkLabeledStrings(_ reader: inout StrictJSONReader) throws {
        var elements = StrictJSONReader.ArrayElements()
        while try reader.nextElement(&elements) {
            let start = reader.position
            if reader.consumeExactly(#"{"label":"#) {
                try reader.skipStringOrNull()
                if reader.consumeExactly(#","value":"#) {
                    try reader.skipString()
                    if reader.consumeExactly("}") { continue }
                }
                reader.rewind(to: start)
            } else if reader.consumeExactly(#"{"value":"#) {
                try reader.skipString()
                if reader.consumeExactly(#","label":"#) {
                    try reader.skipStringOrNull()
                    if reader.consumeExactly("}") { continue }
                }
                reader.rewind(to: start)
            }
            var hasValue = false
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: labeledStringKeys, &members) {
                if index == 0 {
                    try reader.skipStringOrNull()
                } else {
                    try reader.skipString()
                    hasValue = true
                }
            }
            guard hasValue else { throw StrictJSONReader.GiveUp() }
        }
    }

    /// The checks of `readPostalAddress`, `readSocialProfile` and `readInstantMessageAddress`
    /// without their values: an array of objects whose known keys hold strings or null.
    private static func checkStringObjects(_ reader: inout StrictJSONReader, keys: JSONKeyTable) throws {
        try reader.readArray { reader in
            try reader.readObject(keys: keys) { reader, _ in
                if try reader.consumeNull() { return }
                try reader.skipString()
            }
        }
    }

    private static func readArray<T>(
        _ reader: inout StrictJSONReader, _ element: (inout StrictJSONReader) throws -> T
    ) throws -> [T] {
        var values: [T] = []
        try reader.readArray { values.append(try element(&$0)) }
        return values
    }

    private static let labeledStringKeys = JSONKeyTable(["label", "value"])

    private static func readLabeledStrings(_ reader: inout StrictJSONReader) throws -> [ContactRecord.LabeledString] {
        // Not through the generic `readArray`: phones and e-mails are most contacts' arrays, and a
        // debug build looks up `[T]`'s metadata at run time on every generic call.
        // Loops, not `readArray` and `readObject(keys:)` with closures: a closure call (and its
        // frame's zeroing) per element and per key in a debug build.
        var values: [ContactRecord.LabeledString] = []
        var elements = StrictJSONReader.ArrayElements()
        while try reader.nextElement(&elements) {
            var label: String?
            var value: String?
            var members = StrictJSONReader.ObjectMembers()
            while let index = try reader.nextMember(of: labeledStringKeys, &members) {
                if index == 0 {
                    if try !reader.consumeNull() { label = try reader.readString() }
                } else {
                    value = try reader.readString()
                }
            }
            guard let value else { throw StrictJSONReader.GiveUp() }
            values.append(ContactRecord.LabeledString(label: label, value: value))
        }
        return values
    }

    private static let postalKeys = JSONKeyTable([
        "label", "street", "subLocality", "city", "subAdministrativeArea", "state", "postalCode", "country",
        "isoCountryCode",
    ])

    private static func readPostalAddress(_ reader: inout StrictJSONReader) throws -> ContactRecord.LabeledPostalAddress
    {
        var address = ContactRecord.LabeledPostalAddress(label: nil)
        try reader.readObject(keys: postalKeys) { reader, index in
            if try reader.consumeNull() { return }
            let value = try reader.readString()
            switch index {
            case 0: address.label = value
            case 1: address.street = value
            case 2: address.subLocality = value
            case 3: address.city = value
            case 4: address.subAdministrativeArea = value
            case 5: address.state = value
            case 6: address.postalCode = value
            case 7: address.country = value
            default: address.isoCountryCode = value
            }
        }
        return address
    }

    private static let socialKeys = JSONKeyTable(["label", "urlString", "username", "userIdentifier", "service"])

    private static func readSocialProfile(_ reader: inout StrictJSONReader) throws -> ContactRecord.LabeledSocialProfile
    {
        var profile = ContactRecord.LabeledSocialProfile(label: nil)
        try reader.readObject(keys: socialKeys) { reader, index in
            if try reader.consumeNull() { return }
            let value = try reader.readString()
            switch index {
            case 0: profile.label = value
            case 1: profile.urlString = value
            case 2: profile.username = value
            case 3: profile.userIdentifier = value
            default: profile.service = value
            }
        }
        return profile
    }

    private static let instantMessageKeys = JSONKeyTable(["label", "username", "service"])

    private static func readInstantMessageAddress(
        _ reader: inout StrictJSONReader
    ) throws -> ContactRecord.LabeledInstantMessageAddress {
        var address = ContactRecord.LabeledInstantMessageAddress(label: nil, username: "", service: "")
        try reader.readObject(keys: instantMessageKeys) { reader, index in
            if try reader.consumeNull() { return }
            let value = try reader.readString()
            switch index {
            case 0: address.label = value
            case 1: address.username = value
            default: address.service = value
            }
        }
        return address
    }

    private static let nonGregorianKeys = JSONKeyTable(["calendar", "era", "year", "month", "day", "isLeapMonth"])

    private static func readNonGregorianDate(_ reader: inout StrictJSONReader) throws -> ContactRecord.NonGregorianDate
    {
        var calendar: String?
        var era: Int?
        var year: Int?
        var month: Int?
        var day: Int?
        var isLeapMonth: Bool?
        try reader.readObject(keys: nonGregorianKeys) { reader, index in
            // Required keys (calendar, month, day) given as null are Foundation's error to report.
            if try reader.consumeNull() {
                if index == 0 || index == 3 || index == 4 { throw StrictJSONReader.GiveUp() }
                return
            }
            switch index {
            case 0: calendar = try reader.readString()
            case 1: era = try reader.readInt()
            case 2: year = try reader.readInt()
            case 3: month = try reader.readInt()
            case 4: day = try reader.readInt()
            default: isLeapMonth = try reader.readBool()
            }
        }
        guard let calendar, let month, let day else { throw StrictJSONReader.GiveUp() }
        let date = ContactRecord.NonGregorianDate(
            calendar: calendar, era: era, year: year, month: month, day: day, isLeapMonth: isLeapMonth)
        guard date.problem == nil else { throw StrictJSONReader.GiveUp() }
        return date
    }
}
