import AppGroupStore
import Foundation

/// An immutable contact: a person's or an organization's names, phone numbers,
/// email and postal addresses, and other details.
///
/// Mirrors Apple's `CNContact` so provider code written for iOS compiles unchanged.
/// Use ``CNMutableContact`` to build or change a contact, and ``copy(with:)`` /
/// ``mutableCopy(with:)`` to move between the two.
///
/// ## Equality
/// Apple does not document how contacts compare. This stand-in uses value equality:
/// two contacts are equal when every value, including the ``identifier``, is equal,
/// whether either is a ``CNContact`` or a ``CNMutableContact``. ``hash`` is consistent
/// with this. That makes Equatable and Hashable types that hold a contact (such as
/// an enum case wrapping a ``CNMutableContact``) behave predictably. Because a mutable
/// contact's hash changes when it is changed, do not mutate a contact while it is a
/// key of a dictionary or a member of a set.
///
/// ## Concurrency
/// Like Apple's, this class is not `Sendable`. A mutable contact that the system's bridge made from
/// a stored record fills in its values (and its fresh identifier) when first read; like any
/// `CNMutableContact`, do not read it from two threads at once (an immutable ``copy(with:)`` is
/// filled in before it is made).
open class CNContact: NSObject, NSCopying, NSMutableCopying, NSSecureCoding {
    /// Every stored value; ``CNMutableContact``'s setters write here.
    ///
    /// A contact the bridge made (`ContactRecord.makeContact`) holds only its record at first and
    /// builds these values (labeled values, phone numbers, addresses: several objects) the first
    /// time anything reads them: a full sync hands every contact to the provider and takes it back
    /// unread, and building them was a fifth of its time (P3).
    ///
    /// Any write forgets ``bridgedRecord``: the contact no longer holds exactly what it was built from.
    var values: CNContactValues {
        _read {
            if valuesPending { fillValues() }
            yield storedValues
        }
        _modify {
            if valuesPending { fillValues() }
            yield &storedValues
            bridgedRecord = nil
        }
    }

    /// The values once filled in; until then (``valuesPending``) only the identifier is set.
    private var storedValues: CNContactValues
    /// Whether ``storedValues`` is still to be built from ``bridgedRecord``.
    private var valuesPending = false

    /// Whether the contact's fresh identifier is still to be made (``identifier``).
    ///
    /// A contact the bridge makes for a provider gets a new identifier like any new contact, but a
    /// full sync never reads it: the item's own identifier names the contact. Making a million of
    /// them (a 36-byte string each, allocated and freed) was a twentieth of a sync's allocations.
    private var identifierPending = false

    private func assignIdentifier() {
        identifierPending = false
        storedValues.identifier = UniqueIdentifier.make()
    }

    private func fillValues() {
        valuesPending = false
        if identifierPending { assignIdentifier() }
        if let record = bridgedRecord {
            storedValues = CNContactValues(record, identifier: storedValues.identifier)
        }
    }

    /// The record this contact was built from by the bridge (`ContactRecord.makeContact`), while the
    /// contact still holds exactly that record's values; nil for any contact built or changed otherwise.
    ///
    /// Turning the contact back into a record (what the system does with every item a provider
    /// delivers) then copies this record instead of rebuilding it field by field. Only records whose
    /// round trip through a contact is exact get one (see `ContactRecord.bridgesExactly`), and every
    /// setter clears it, so the result is the same record the field-by-field path would build.
    package internal(set) var bridgedRecord: ContactRecord?

    /// Creates an empty contact with a fresh identifier (a UUID string).
    public override init() {
        self.storedValues = CNContactValues(identifier: UniqueIdentifier.make())
        super.init()
    }

    /// Creates an empty contact with the given identifier.
    ///
    /// Not part of Apple's API: the simulator uses it to rebuild a contact whose
    /// identifier was assigned earlier.
    ///
    /// - Parameter identifier: The identifier the contact will have.
    package init(identifier: String) {
        self.storedValues = CNContactValues(identifier: identifier)
        super.init()
    }

    /// Creates a contact holding the given values.
    init(values: CNContactValues) {
        self.storedValues = values
        super.init()
    }

    /// Creates a contact with `record`'s values and `identifier` (a fresh one, made when first read,
    /// when nil), filled in when first read; the record is its ``bridgedRecord`` (the caller
    /// checked `record.bridgesExactly`).
    init(bridging record: ContactRecord, identifier: String?) {
        self.storedValues = CNContactValues(identifier: identifier ?? "")
        self.identifierPending = identifier == nil
        self.valuesPending = true
        self.bridgedRecord = record
        super.init()
    }

    // MARK: Identification

    /// The contact's unique identifier; a UUID string for a new contact, kept by copies.
    open var identifier: String {
        if identifierPending { assignIdentifier() }
        return storedValues.identifier
    }

    /// Whether the contact is a person or an organization; ``CNContactType/person`` by default.
    open var contactType: CNContactType { values.contactType }

    // MARK: Names

    /// The name prefix, such as "Dr.".
    open var namePrefix: String { values.namePrefix }

    /// The given (first) name.
    open var givenName: String { values.givenName }

    /// The middle name.
    open var middleName: String { values.middleName }

    /// The family (last) name.
    open var familyName: String { values.familyName }

    /// The family name before a change, such as a maiden name.
    open var previousFamilyName: String { values.previousFamilyName }

    /// The name suffix, such as "Jr.".
    open var nameSuffix: String { values.nameSuffix }

    /// The nickname.
    open var nickname: String { values.nickname }

    // MARK: Organization

    /// The organization's name, for an organization or a person's employer.
    open var organizationName: String { values.organizationName }

    /// The department within the organization.
    open var departmentName: String { values.departmentName }

    /// The job title.
    open var jobTitle: String { values.jobTitle }

    // MARK: Phonetic names

    /// How the given name is pronounced.
    open var phoneticGivenName: String { values.phoneticGivenName }

    /// How the middle name is pronounced.
    open var phoneticMiddleName: String { values.phoneticMiddleName }

    /// How the family name is pronounced.
    open var phoneticFamilyName: String { values.phoneticFamilyName }

    /// How the organization name is pronounced.
    open var phoneticOrganizationName: String { values.phoneticOrganizationName }

    // MARK: Other details

    /// A free-form note.
    open var note: String { values.note }

    /// The birthday, in Gregorian components (the year may be missing); `nil` when unknown.
    open var birthday: DateComponents? { values.birthday }

    /// The birthday in another calendar (its `calendar` says which: Chinese, Hebrew, Islamic, …).
    open var nonGregorianBirthday: DateComponents? { values.nonGregorianBirthday }

    /// The contact's image data; `nil` when there is none.
    open var imageData: Data? { values.imageData }

    /// The thumbnail image data.
    ///
    /// Apple derives a downscaled thumbnail from ``imageData``; this stand-in does not
    /// resize images and returns ``imageData`` itself.
    open var thumbnailImageData: Data? { values.imageData }

    /// Whether the contact has image data.
    open var imageDataAvailable: Bool { values.imageData != nil }

    // MARK: Labeled values

    /// The phone numbers, each with a label such as ``CNLabelPhoneNumberMobile``.
    open var phoneNumbers: [CNLabeledValue<CNPhoneNumber>] { values.phoneNumbers }

    /// The email addresses, each with a label such as ``CNLabelHome``.
    open var emailAddresses: [CNLabeledValue<NSString>] { values.emailAddresses }

    /// The postal addresses, each with a label such as ``CNLabelWork``.
    open var postalAddresses: [CNLabeledValue<CNPostalAddress>] { values.postalAddresses }

    /// The URL addresses, each with a label such as ``CNLabelURLAddressHomePage``.
    open var urlAddresses: [CNLabeledValue<NSString>] { values.urlAddresses }

    /// Other dates, each with a label such as ``CNLabelDateAnniversary``.
    open var dates: [CNLabeledValue<NSDateComponents>] { values.dates }

    /// Related people, each with a label such as ``CNLabelContactRelationManager``.
    open var contactRelations: [CNLabeledValue<CNContactRelation>] { values.contactRelations }

    /// Social network profiles, each with a label.
    open var socialProfiles: [CNLabeledValue<CNSocialProfile>] { values.socialProfiles }

    /// Instant messaging addresses, each with a label such as ``CNLabelHome``.
    open var instantMessageAddresses: [CNLabeledValue<CNInstantMessageAddress>] { values.instantMessageAddresses }

    // MARK: NSSecureCoding

    /// `true`: contacts support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a contact archived by ``encode(with:)``.
    ///
    /// Missing values decode as empty; a missing identifier gets a fresh one.
    ///
    /// - Parameter coder: A keyed decoder.
    public required init?(coder: NSCoder) {
        self.storedValues = CNContactValues(decodingFrom: coder)
        super.init()
    }

    /// Encodes every value with a keyed encoder.
    ///
    /// - Parameter coder: A keyed encoder.
    open func encode(with coder: NSCoder) {
        values.encode(with: coder)
    }

    // MARK: Copying

    /// Returns an immutable ``CNContact`` with the same values and the same identifier.
    ///
    /// - Parameter zone: Ignored.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CNContact(values: values)
        copy.bridgedRecord = bridgedRecord
        return copy
    }

    /// Returns a ``CNMutableContact`` with the same values and the same identifier.
    ///
    /// - Parameter zone: Ignored.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = CNMutableContact(values: values)
        copy.bridgedRecord = bridgedRecord
        return copy
    }

    // MARK: Equality

    /// Whether `object` is a contact whose values, including the identifier, are all equal.
    ///
    /// - Parameter object: The object to compare with.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNContact else { return false }
        return values == other.values
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        values.hashValue
    }

    /// A short description for debugging, showing the identifier and the name.
    open override var description: String {
        let name = CNContactFormatter.string(from: self, style: .fullName) ?? ""
        return "<\(type(of: self)): identifier=\(identifier), name=\"\(name)\">"
    }
}
