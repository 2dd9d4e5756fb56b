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
    /// A content page's records also defer decoding their fields (``ContactRecordStorage``).
    private var storage: ContactRecordStorage

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

    /// Makes the storage this record's own (copy-on-write), with all its fields decoded, before
    /// anything in it is written.
    private mutating func ownStorage() {
        if storage.isDeferred || !isKnownUniquelyReferenced(&storage) {
            let complete = storage.complete
            storage = ContactRecordFieldStorage(fields: complete.fields, verbatim: complete.verbatim)
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
        get { storage.identifier }
        _modify {
            willWrite()
            yield &storage.complete.fields.identifier
        }
    }
    public var namePrefix: String {
        get { storage.complete.fields.namePrefix }
        _modify {
            willWrite()
            yield &storage.complete.fields.namePrefix
        }
    }
    public var givenName: String {
        get { storage.complete.fields.givenName }
        _modify {
            willWrite()
            yield &storage.complete.fields.givenName
        }
    }
    public var middleName: String {
        get { storage.complete.fields.middleName }
        _modify {
            willWrite()
            yield &storage.complete.fields.middleName
        }
    }
    public var familyName: String {
        get { storage.complete.fields.familyName }
        _modify {
            willWrite()
            yield &storage.complete.fields.familyName
        }
    }
    public var nameSuffix: String {
        get { storage.complete.fields.nameSuffix }
        _modify {
            willWrite()
            yield &storage.complete.fields.nameSuffix
        }
    }
    public var nickname: String {
        get { storage.complete.fields.nickname }
        _modify {
            willWrite()
            yield &storage.complete.fields.nickname
        }
    }
    public var organizationName: String {
        get { storage.complete.fields.organizationName }
        _modify {
            willWrite()
            yield &storage.complete.fields.organizationName
        }
    }
    public var departmentName: String {
        get { storage.complete.fields.departmentName }
        _modify {
            willWrite()
            yield &storage.complete.fields.departmentName
        }
    }
    public var jobTitle: String {
        get { storage.complete.fields.jobTitle }
        _modify {
            willWrite()
            yield &storage.complete.fields.jobTitle
        }
    }
    public var phoneNumbers: [LabeledString] {
        get { storage.complete.fields.phoneNumbers }
        _modify {
            willWrite()
            yield &storage.complete.fields.phoneNumbers
        }
    }
    public var emailAddresses: [LabeledString] {
        get { storage.complete.fields.emailAddresses }
        _modify {
            willWrite()
            yield &storage.complete.fields.emailAddresses
        }
    }
    public var postalAddresses: [LabeledPostalAddress] {
        get { storage.complete.fields.postalAddresses }
        _modify {
            willWrite()
            yield &storage.complete.fields.postalAddresses
        }
    }
    public var urlAddresses: [LabeledString] {
        get { storage.complete.fields.urlAddresses }
        _modify {
            willWrite()
            yield &storage.complete.fields.urlAddresses
        }
    }
    public var note: String {
        get { storage.complete.fields.note }
        _modify {
            willWrite()
            yield &storage.complete.fields.note
        }
    }
    /// `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (as vCard writes it).
    public var birthday: String? {
        get { storage.complete.fields.birthday }
        _modify {
            willWrite()
            yield &storage.complete.fields.birthday
        }
    }
    public var imageData: Data? {
        get { storage.complete.fields.imageData }
        _modify {
            willWrite()
            yield &storage.complete.fields.imageData
        }
    }
    /// `"organization"` for an organization; nil (omitted) for a person, `CNContactType`'s default.
    public var contactType: String? {
        get { storage.complete.fields.contactType }
        _modify {
            willWrite()
            yield &storage.complete.fields.contactType
        }
    }
    public var previousFamilyName: String {
        get { storage.complete.fields.previousFamilyName }
        _modify {
            willWrite()
            yield &storage.complete.fields.previousFamilyName
        }
    }
    public var phoneticGivenName: String {
        get { storage.complete.fields.phoneticGivenName }
        _modify {
            willWrite()
            yield &storage.complete.fields.phoneticGivenName
        }
    }
    public var phoneticMiddleName: String {
        get { storage.complete.fields.phoneticMiddleName }
        _modify {
            willWrite()
            yield &storage.complete.fields.phoneticMiddleName
        }
    }
    public var phoneticFamilyName: String {
        get { storage.complete.fields.phoneticFamilyName }
        _modify {
            willWrite()
            yield &storage.complete.fields.phoneticFamilyName
        }
    }
    public var phoneticOrganizationName: String {
        get { storage.complete.fields.phoneticOrganizationName }
        _modify {
            willWrite()
            yield &storage.complete.fields.phoneticOrganizationName
        }
    }
    /// A birthday in another calendar (Chinese, Hebrew, Islamic, …).
    public var nonGregorianBirthday: NonGregorianDate? {
        get { storage.complete.fields.nonGregorianBirthday }
        _modify {
            willWrite()
            yield &storage.complete.fields.nonGregorianBirthday
        }
    }
    /// Other dates (`CNLabelDateAnniversary`, …), each `YYYY-MM-DD` or `--MM-DD`.
    public var dates: [LabeledString] {
        get { storage.complete.fields.dates }
        _modify {
            willWrite()
            yield &storage.complete.fields.dates
        }
    }
    /// Related people (`CNContactRelation`): the value is the person's name.
    public var contactRelations: [LabeledString] {
        get { storage.complete.fields.contactRelations }
        _modify {
            willWrite()
            yield &storage.complete.fields.contactRelations
        }
    }
    public var socialProfiles: [LabeledSocialProfile] {
        get { storage.complete.fields.socialProfiles }
        _modify {
            willWrite()
            yield &storage.complete.fields.socialProfiles
        }
    }
    public var instantMessageAddresses: [LabeledInstantMessageAddress] {
        get { storage.complete.fields.instantMessageAddresses }
        _modify {
            willWrite()
            yield &storage.complete.fields.instantMessageAddresses
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
    package var fields: Fields { storage.complete.fields }

    /// Creates a record with the given identifier and empty fields.
    public init(identifier: String) {
        storage = ContactRecordFieldStorage(fields: Fields(identifier: identifier))
    }

    /// A record of `fields` (a decoder that fills them first), carrying the bytes they were read
    /// from when given.
    init(fields: consuming Fields, verbatim: VerbatimJSON = VerbatimJSON()) {
        storage = ContactRecordFieldStorage(fields: consume fields, verbatim: verbatim)
    }

    /// A record of `identifier` whose other fields are decoded from `bytes` the first time one is
    /// read (``ContactRecordCodec/deferringRecord(_:)`` checked that they decode).
    init(identifier: String, deferring bytes: VerbatimJSON) {
        storage = DeferredContactRecordStorage(identifier: identifier, deferring: bytes)
    }

    /// Whether this record was made to decode its fields on first read
    /// (``ContactRecordCodec/deferringRecord(_:)``), until a write makes it an ordinary record.
    ///
    /// Such a record has no birthday, dates, non-Gregorian birthday or contact type: the codec
    /// decodes a contact with any of those at once, so that a question about them (whether the
    /// contact bridges exactly, say) never needs the fields.
    package var defersDecoding: Bool { storage.isDeferred }

    /// Whether this record defers decoding and something has read its fields (tests check what a
    /// path reads).
    package var hasDecodedDeferredFields: Bool { storage.hasDecodedDeferredFields }

    /// The fields, as a record printed or dumped shows them (not its storage).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.complete.fields).children, displayStyle: .struct)
    }

    public static func == (lhs: ContactRecord, rhs: ContactRecord) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.complete.fields == rhs.storage.complete.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.complete.fields)
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
