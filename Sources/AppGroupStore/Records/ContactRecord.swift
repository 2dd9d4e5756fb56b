import Foundation

/// A contact as stored in App Group files, with Apple's Contacts key names.
///
/// This is the one serialisable shape shared by the app database, the system store, the CLI's
/// `--json` output and the pipe-free exchange between processes. It is a plain value (`Sendable`)
/// so it can cross task boundaries, unlike `CNMutableContact`.
public struct ContactRecord: Codable, Equatable, Hashable, Sendable, CustomReflectable {
    /// The fields, shared by copies of the record until one of them writes (copy-on-write): a record
    /// is copied at every step of a full sync (the page, the contact the bridge makes, the
    /// observer, the commit), and copying 28 fields, a reference count each, was a quarter of it (P3).
    private var storage: Storage

    /// The record's fields, as stored.
    package struct Fields: Hashable, Sendable {
        var identifier: String
        var namePrefix: String = ""
        var givenName: String = ""
        var middleName: String = ""
        var familyName: String = ""
        var nameSuffix: String = ""
        var nickname: String = ""
        var organizationName: String = ""
        var departmentName: String = ""
        var jobTitle: String = ""
        var phoneNumbers: [LabeledString] = []
        var emailAddresses: [LabeledString] = []
        var postalAddresses: [LabeledPostalAddress] = []
        var urlAddresses: [LabeledString] = []
        var note: String = ""
        var birthday: String?
        var imageData: Data?
        var contactType: String?
        var previousFamilyName: String = ""
        var phoneticGivenName: String = ""
        var phoneticMiddleName: String = ""
        var phoneticFamilyName: String = ""
        var phoneticOrganizationName: String = ""
        var nonGregorianBirthday: NonGregorianDate?
        var dates: [LabeledString] = []
        var contactRelations: [LabeledString] = []
        var socialProfiles: [LabeledSocialProfile] = []
        var instantMessageAddresses: [LabeledInstantMessageAddress] = []
    }

    /// The fields and the bytes they were read from; written only while no other record shares it.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var fields: Fields
        @exclusivity(unchecked) var verbatim: VerbatimJSON

        // `consuming`, and consumed: a debug build otherwise copies the 28 fields (a retain each) and
        // then destroys the argument, for every record a decoder makes.
        init(fields: consuming Fields, verbatim: VerbatimJSON = VerbatimJSON()) {
            self.fields = consume fields
            self.verbatim = verbatim
        }
    }

    /// Makes the storage this record's own (copy-on-write) before anything in it is written.
    private mutating func ownStorage() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(fields: storage.fields, verbatim: storage.verbatim)
        }
    }

    /// Before a field is written: the storage becomes this record's own, and the bytes it was read
    /// from are forgotten (the record no longer holds exactly what they say).
    private mutating func willWrite() {
        ownStorage()
        storage.verbatim.forget()
    }

    /// The app's stable identifier for the contact (`ContactItem.Identifier.value`).
    public var identifier: String {
        get { storage.fields.identifier }
        _modify {
            willWrite()
            yield &storage.fields.identifier
        }
    }
    public var namePrefix: String {
        get { storage.fields.namePrefix }
        _modify {
            willWrite()
            yield &storage.fields.namePrefix
        }
    }
    public var givenName: String {
        get { storage.fields.givenName }
        _modify {
            willWrite()
            yield &storage.fields.givenName
        }
    }
    public var middleName: String {
        get { storage.fields.middleName }
        _modify {
            willWrite()
            yield &storage.fields.middleName
        }
    }
    public var familyName: String {
        get { storage.fields.familyName }
        _modify {
            willWrite()
            yield &storage.fields.familyName
        }
    }
    public var nameSuffix: String {
        get { storage.fields.nameSuffix }
        _modify {
            willWrite()
            yield &storage.fields.nameSuffix
        }
    }
    public var nickname: String {
        get { storage.fields.nickname }
        _modify {
            willWrite()
            yield &storage.fields.nickname
        }
    }
    public var organizationName: String {
        get { storage.fields.organizationName }
        _modify {
            willWrite()
            yield &storage.fields.organizationName
        }
    }
    public var departmentName: String {
        get { storage.fields.departmentName }
        _modify {
            willWrite()
            yield &storage.fields.departmentName
        }
    }
    public var jobTitle: String {
        get { storage.fields.jobTitle }
        _modify {
            willWrite()
            yield &storage.fields.jobTitle
        }
    }
    public var phoneNumbers: [LabeledString] {
        get { storage.fields.phoneNumbers }
        _modify {
            willWrite()
            yield &storage.fields.phoneNumbers
        }
    }
    public var emailAddresses: [LabeledString] {
        get { storage.fields.emailAddresses }
        _modify {
            willWrite()
            yield &storage.fields.emailAddresses
        }
    }
    public var postalAddresses: [LabeledPostalAddress] {
        get { storage.fields.postalAddresses }
        _modify {
            willWrite()
            yield &storage.fields.postalAddresses
        }
    }
    public var urlAddresses: [LabeledString] {
        get { storage.fields.urlAddresses }
        _modify {
            willWrite()
            yield &storage.fields.urlAddresses
        }
    }
    public var note: String {
        get { storage.fields.note }
        _modify {
            willWrite()
            yield &storage.fields.note
        }
    }
    /// `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (as vCard writes it).
    public var birthday: String? {
        get { storage.fields.birthday }
        _modify {
            willWrite()
            yield &storage.fields.birthday
        }
    }
    public var imageData: Data? {
        get { storage.fields.imageData }
        _modify {
            willWrite()
            yield &storage.fields.imageData
        }
    }
    /// `"organization"` for an organization; nil (omitted) for a person, `CNContactType`'s default.
    public var contactType: String? {
        get { storage.fields.contactType }
        _modify {
            willWrite()
            yield &storage.fields.contactType
        }
    }
    public var previousFamilyName: String {
        get { storage.fields.previousFamilyName }
        _modify {
            willWrite()
            yield &storage.fields.previousFamilyName
        }
    }
    public var phoneticGivenName: String {
        get { storage.fields.phoneticGivenName }
        _modify {
            willWrite()
            yield &storage.fields.phoneticGivenName
        }
    }
    public var phoneticMiddleName: String {
        get { storage.fields.phoneticMiddleName }
        _modify {
            willWrite()
            yield &storage.fields.phoneticMiddleName
        }
    }
    public var phoneticFamilyName: String {
        get { storage.fields.phoneticFamilyName }
        _modify {
            willWrite()
            yield &storage.fields.phoneticFamilyName
        }
    }
    public var phoneticOrganizationName: String {
        get { storage.fields.phoneticOrganizationName }
        _modify {
            willWrite()
            yield &storage.fields.phoneticOrganizationName
        }
    }
    /// A birthday in another calendar (Chinese, Hebrew, Islamic, …).
    public var nonGregorianBirthday: NonGregorianDate? {
        get { storage.fields.nonGregorianBirthday }
        _modify {
            willWrite()
            yield &storage.fields.nonGregorianBirthday
        }
    }
    /// Other dates (`CNLabelDateAnniversary`, …), each `YYYY-MM-DD` or `--MM-DD`.
    public var dates: [LabeledString] {
        get { storage.fields.dates }
        _modify {
            willWrite()
            yield &storage.fields.dates
        }
    }
    /// Related people (`CNContactRelation`): the value is the person's name.
    public var contactRelations: [LabeledString] {
        get { storage.fields.contactRelations }
        _modify {
            willWrite()
            yield &storage.fields.contactRelations
        }
    }
    public var socialProfiles: [LabeledSocialProfile] {
        get { storage.fields.socialProfiles }
        _modify {
            willWrite()
            yield &storage.fields.socialProfiles
        }
    }
    public var instantMessageAddresses: [LabeledInstantMessageAddress] {
        get { storage.fields.instantMessageAddresses }
        _modify {
            willWrite()
            yield &storage.fields.instantMessageAddresses
        }
    }

    /// This record's JSON exactly as the store read it, while the record still holds exactly what
    /// those bytes say: any write to a field forgets it.
    ///
    /// A full sync hands each contact of the app's snapshot through the provider to the system's
    /// journal; when nobody changed it on the way, the system writes these bytes instead of
    /// encoding the record again (P3). Never part of equality, hashing or `Codable`.
    package var verbatim: VerbatimJSON {
        get { storage.verbatim }
        set {
            ownStorage()
            storage.verbatim = newValue
        }
    }

    /// The stored fields (tests compare them with what they change).
    package var fields: Fields { storage.fields }

    /// Creates a record with the given identifier and empty fields.
    public init(identifier: String) {
        storage = Storage(fields: Fields(identifier: identifier))
    }

    /// A record of `fields` (a decoder that fills them first).
    init(fields: consuming Fields) {
        storage = Storage(fields: consume fields)
    }

    /// The fields, as a record printed or dumped shows them (not its storage).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }

    public static func == (lhs: ContactRecord, rhs: ContactRecord) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// A labelled string value (`CNLabeledValue<NSString>` or `CNLabeledValue<CNPhoneNumber>`).
    public struct LabeledString: Codable, Equatable, Hashable, Sendable {
        public var label: String?
        public var value: String
        public init(label: String?, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// A labelled postal address (`CNLabeledValue<CNPostalAddress>`).
    public struct LabeledPostalAddress: Codable, Equatable, Hashable, Sendable {
        public var label: String?
        public var street: String = ""
        public var subLocality: String = ""
        public var city: String = ""
        public var subAdministrativeArea: String = ""
        public var state: String = ""
        public var postalCode: String = ""
        public var country: String = ""
        public var isoCountryCode: String = ""

        public init(label: String?) {
            self.label = label
        }

        enum CodingKeys: String, CodingKey {
            case label, street, subLocality, city, subAdministrativeArea, state, postalCode, country, isoCountryCode
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            label = try c.decodeIfPresent(String.self, forKey: .label)
            street = try c.decodeIfPresent(String.self, forKey: .street) ?? ""
            subLocality = try c.decodeIfPresent(String.self, forKey: .subLocality) ?? ""
            city = try c.decodeIfPresent(String.self, forKey: .city) ?? ""
            subAdministrativeArea = try c.decodeIfPresent(String.self, forKey: .subAdministrativeArea) ?? ""
            state = try c.decodeIfPresent(String.self, forKey: .state) ?? ""
            postalCode = try c.decodeIfPresent(String.self, forKey: .postalCode) ?? ""
            country = try c.decodeIfPresent(String.self, forKey: .country) ?? ""
            isoCountryCode = try c.decodeIfPresent(String.self, forKey: .isoCountryCode) ?? ""
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(label, forKey: .label)
            for (key, value) in [
                (CodingKeys.street, street), (.subLocality, subLocality), (.city, city),
                (.subAdministrativeArea, subAdministrativeArea), (.state, state), (.postalCode, postalCode),
                (.country, country), (.isoCountryCode, isoCountryCode),
            ] where !value.isEmpty {
                try c.encode(value, forKey: key)
            }
        }
    }

    /// "Given Family" (or the organization), for human-readable listings.
    public var displayName: String {
        let name = [namePrefix, givenName, middleName, familyName, nameSuffix].filter { !$0.isEmpty }
            .joined(separator: " ")
        return name.isEmpty ? organizationName : name
    }
}

/// Birthdays as stored: `YYYY-MM-DD`, or `--MM-DD` without a year.
public enum BirthdayFormat {
    /// Parses a stored birthday into (year?, month, day), or nil when it is not valid.
    public static func parse(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        if let parsed = parseDigits(text) { return parsed }
        return parseSplitting(text)
    }

    /// The general path of ``parse(_:)``: what it decides for every text (`parseDigits` only answers
    /// the common shapes sooner, and `BirthdayParsingTests` checks the two agree).
    static func parseSplitting(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let year: Int?
        let month: Int
        let day: Int
        if parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            parts[1].count == 2, parts[2].count == 2
        {
            (year, month, day) = (y, m, d)
        } else if parts.count == 4, parts[0].isEmpty, parts[1].isEmpty, let m = Int(parts[2]), let d = Int(parts[3]),
            parts[2].count == 2, parts[3].count == 2
        {
            (year, month, day) = (nil, m, d)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year, month, day)
    }

    /// The common shapes, `yyyy-mm-dd` and `--mm-dd` in plain digits, read from the bytes (a debug
    /// build's `split` and `Int(_:)` are generic calls, once per contact with a birthday); nil sends
    /// anything else, valid or not, through `parse`'s general path, which decides it as before.
    static func parseDigits(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        var text = text
        return text.withUTF8 { bytes -> (year: Int?, month: Int, day: Int)? in
            func digits(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                var index = start
                while index < start + count {
                    let byte = bytes[index]
                    guard byte >= 0x30, byte <= 0x39 else { return nil }
                    value = value * 10 + Int(byte - 0x30)
                    index += 1
                }
                return value
            }
            let year: Int?
            let monthStart: Int
            if bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D, let parsed = digits(0, 4) {
                year = parsed
                monthStart = 5
            } else if bytes.count == 7, bytes[0] == 0x2D, bytes[1] == 0x2D, bytes[4] == 0x2D {
                year = nil
                monthStart = 2
            } else {
                return nil
            }
            guard let month = digits(monthStart, 2), let day = digits(monthStart + 3, 2), (1...12).contains(month),
                (1...31).contains(day)
            else { return nil }
            return (year, month, day)
        }
    }

    /// Whether `text` is a birthday exactly as ``format(year:month:day:)`` writes it: it parses,
    /// and formatting what it parses to gives `text` back (`Int` also reads `+990`, which formats
    /// as `0990`).
    public static func isCanonical(_ text: String) -> Bool {
        // Checked on the stored bytes (no copy: the bridge asks for every contact with a birthday).
        var text = text
        let digitsWhereExpected = text.withUTF8 { bytes -> Bool in
            let digitPositions: [Int]
            switch bytes.count {
            case 10 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"):
                digitPositions = [0, 1, 2, 3, 5, 6, 8, 9]
            case 7
            where bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-") && bytes[4] == UInt8(ascii: "-"):
                digitPositions = [2, 3, 5, 6]
            default: return false
            }
            return digitPositions.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
        }
        return digitsWhereExpected && parse(text) != nil
    }

    /// Formats (year?, month, day) the way `parse` reads it.
    public static func format(year: Int?, month: Int, day: Int) -> String {
        let md = String(format: "%02d-%02d", month, day)
        if let year { return String(format: "%04d-", year) + md }
        return "--" + md
    }
}

/// Rules for identifiers that the store accepts, and the one identity rule for them.
///
/// **Identity**: two identifiers name the same contact when they are canonically equivalent
/// Unicode ("café" composed or as "e" + U+0301). That is the rule Swift's `String` `==` and hashing
/// already apply in every map of this package, of the Contacts API and of a provider developer's own
/// code (`[String: CNContact]`), so it is the only rule every path can agree on without wrapping each
/// key. To make the bytes on disk agree with it too, every identifier is normalised to NFC where it
/// enters a store (`JournaledStore` writes and lookups, `AppDatabase`), so the journal's byte search,
/// the snapshot's bytewise order and the in-memory maps can never disagree.
public enum IdentifierRules {
    /// `identifier` in Unicode Normalization Form C: the form every store keeps (see the identity rule).
    public static func normalized(_ identifier: String) -> String {
        // ASCII is already NFC; skip Foundation's conversion on the common path.
        if isASCII(identifier) { return identifier }
        return identifier.precomposedStringWithCanonicalMapping
    }

    /// Whether every byte of `text` is ASCII: a loop over its UTF-8 bytes, not `utf8.allSatisfy`,
    /// which a debug build runs through the generic iterator (5% of a debug import).
    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
    }

    /// `record` with its identifier in NFC.
    public static func normalized(_ record: ContactRecord) -> ContactRecord {
        if isASCII(record.identifier) { return record }
        let identifier = normalized(record.identifier)
        guard
            identifier.utf8.count != record.identifier.utf8.count
                || !identifier.utf8.elementsEqual(record.identifier.utf8)
        else { return record }
        var copy = record
        copy.identifier = identifier
        return copy
    }

    /// Whether `text` holds a control character (below U+0020, or U+007F): a loop over its UTF-8
    /// bytes, not `unicodeScalars.contains(where:)`, which a debug build runs through the generic
    /// iterator, twice for every contact imported. Each such character is one byte, and every byte of
    /// a longer UTF-8 sequence is 0x80 or above, so the bytes tell exactly what the scalars would.
    static func hasControlCharacter(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Through the base pointer: a debug build inlines a pointer's subscript, and calls a
            // buffer's (with its bounds check) for each byte, twice per contact an import writes.
            guard let base = bytes.baseAddress else { return false }
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = base[index]
                if byte < 0x20 || byte == 0x7F { return true }
                index += 1
            }
            return false
        }
    }

    /// The longest identifier accepted, in UTF-8 bytes.
    public static let maximumLength = 256

    /// Throws `StoreError.invalidIdentifier` unless `identifier` can be stored safely.
    public static func validate(_ identifier: String) throws {
        if identifier.isEmpty {
            throw StoreError.invalidIdentifier(identifier, reason: "it is empty")
        }
        if identifier.utf8.count > maximumLength {
            throw StoreError.invalidIdentifier(identifier, reason: "it is longer than \(maximumLength) bytes")
        }
        if hasControlCharacter(identifier) {
            throw StoreError.invalidIdentifier(identifier, reason: "it contains a control character")
        }
    }
}
