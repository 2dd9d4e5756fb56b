import Foundation

/// A contact whose values can be changed.
///
/// Mirrors Apple's `CNMutableContact`: every value ``CNContact`` exposes can be set,
/// except those Apple also keeps read-only: ``CNContact/identifier`` (fixed when the
/// contact is created and kept by copies), ``CNContact/thumbnailImageData`` and
/// ``CNContact/imageDataAvailable`` (both follow ``imageData``).
///
/// ```swift
/// let contact = CNMutableContact()
/// contact.givenName = "Ada"
/// contact.phoneNumbers = [.init(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+1 555 0100"))]
/// ```
open class CNMutableContact: CNContact {
    /// Whether the contact is a person or an organization.
    open override var contactType: CNContactType {
        get { values.contactType }
        set { values.contactType = newValue }
    }

    /// The name prefix, such as "Dr.".
    open override var namePrefix: String {
        get { values.namePrefix }
        set { values.namePrefix = newValue }
    }

    /// The given (first) name.
    open override var givenName: String {
        get { values.givenName }
        set { values.givenName = newValue }
    }

    /// The middle name.
    open override var middleName: String {
        get { values.middleName }
        set { values.middleName = newValue }
    }

    /// The family (last) name.
    open override var familyName: String {
        get { values.familyName }
        set { values.familyName = newValue }
    }

    /// The family name before a change, such as a maiden name.
    open override var previousFamilyName: String {
        get { values.previousFamilyName }
        set { values.previousFamilyName = newValue }
    }

    /// The name suffix, such as "Jr.".
    open override var nameSuffix: String {
        get { values.nameSuffix }
        set { values.nameSuffix = newValue }
    }

    /// The nickname.
    open override var nickname: String {
        get { values.nickname }
        set { values.nickname = newValue }
    }

    /// The organization's name, for an organization or a person's employer.
    open override var organizationName: String {
        get { values.organizationName }
        set { values.organizationName = newValue }
    }

    /// The department within the organization.
    open override var departmentName: String {
        get { values.departmentName }
        set { values.departmentName = newValue }
    }

    /// The job title.
    open override var jobTitle: String {
        get { values.jobTitle }
        set { values.jobTitle = newValue }
    }

    /// How the given name is pronounced.
    open override var phoneticGivenName: String {
        get { values.phoneticGivenName }
        set { values.phoneticGivenName = newValue }
    }

    /// How the middle name is pronounced.
    open override var phoneticMiddleName: String {
        get { values.phoneticMiddleName }
        set { values.phoneticMiddleName = newValue }
    }

    /// How the family name is pronounced.
    open override var phoneticFamilyName: String {
        get { values.phoneticFamilyName }
        set { values.phoneticFamilyName = newValue }
    }

    /// How the organization name is pronounced.
    open override var phoneticOrganizationName: String {
        get { values.phoneticOrganizationName }
        set { values.phoneticOrganizationName = newValue }
    }

    /// A free-form note.
    open override var note: String {
        get { values.note }
        set { values.note = newValue }
    }

    /// The birthday, in Gregorian components (the year may be missing); `nil` when unknown.
    open override var birthday: DateComponents? {
        get { values.birthday }
        set { values.birthday = newValue }
    }

    /// The contact's image data; `nil` for none. ``CNContact/thumbnailImageData`` and ``CNContact/imageDataAvailable`` follow it.
    open override var imageData: Data? {
        get { values.imageData }
        set { values.imageData = newValue }
    }

    /// The phone numbers, each with a label such as ``CNLabelPhoneNumberMobile``.
    open override var phoneNumbers: [CNLabeledValue<CNPhoneNumber>] {
        get { values.phoneNumbers }
        set { values.phoneNumbers = newValue }
    }

    /// The email addresses, each with a label such as ``CNLabelHome``.
    open override var emailAddresses: [CNLabeledValue<NSString>] {
        get { values.emailAddresses }
        set { values.emailAddresses = newValue }
    }

    /// The postal addresses, each with a label such as ``CNLabelWork``.
    open override var postalAddresses: [CNLabeledValue<CNPostalAddress>] {
        get { values.postalAddresses }
        set { values.postalAddresses = newValue }
    }

    /// The URL addresses, each with a label such as ``CNLabelURLAddressHomePage``.
    open override var urlAddresses: [CNLabeledValue<NSString>] {
        get { values.urlAddresses }
        set { values.urlAddresses = newValue }
    }

    /// Other dates, each with a label such as ``CNLabelDateAnniversary``.
    open override var dates: [CNLabeledValue<NSDateComponents>] {
        get { values.dates }
        set { values.dates = newValue }
    }

    /// The birthday in another calendar (set its `calendar`: Chinese, Hebrew, Islamic, …).
    open override var nonGregorianBirthday: DateComponents? {
        get { values.nonGregorianBirthday }
        set { values.nonGregorianBirthday = newValue }
    }

    /// Related people, each with a label such as ``CNLabelContactRelationManager``.
    open override var contactRelations: [CNLabeledValue<CNContactRelation>] {
        get { values.contactRelations }
        set { values.contactRelations = newValue }
    }

    /// Social network profiles, each with a label.
    open override var socialProfiles: [CNLabeledValue<CNSocialProfile>] {
        get { values.socialProfiles }
        set { values.socialProfiles = newValue }
    }

    /// Instant messaging addresses, each with a label such as ``CNLabelHome``.
    open override var instantMessageAddresses: [CNLabeledValue<CNInstantMessageAddress>] {
        get { values.instantMessageAddresses }
        set { values.instantMessageAddresses = newValue }
    }
}
