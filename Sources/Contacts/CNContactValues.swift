import Foundation

/// The stored values of a ``CNContact``, kept together so that copying, comparing
/// and hashing treat every value alike. ``CNMutableContact`` writes them.
struct CNContactValues: Hashable {
    var identifier: String
    var contactType: CNContactType = .person

    var namePrefix = ""
    var givenName = ""
    var middleName = ""
    var familyName = ""
    var previousFamilyName = ""
    var nameSuffix = ""
    var nickname = ""

    var organizationName = ""
    var departmentName = ""
    var jobTitle = ""

    var phoneticGivenName = ""
    var phoneticMiddleName = ""
    var phoneticFamilyName = ""
    var phoneticOrganizationName = ""

    var note = ""
    var birthday: DateComponents?
    var nonGregorianBirthday: DateComponents?
    var imageData: Data?

    var phoneNumbers: [CNLabeledValue<CNPhoneNumber>] = []
    var emailAddresses: [CNLabeledValue<NSString>] = []
    var postalAddresses: [CNLabeledValue<CNPostalAddress>] = []
    var urlAddresses: [CNLabeledValue<NSString>] = []
    var dates: [CNLabeledValue<NSDateComponents>] = []
    var contactRelations: [CNLabeledValue<CNContactRelation>] = []
    var socialProfiles: [CNLabeledValue<CNSocialProfile>] = []
    var instantMessageAddresses: [CNLabeledValue<CNInstantMessageAddress>] = []

    /// Every string value with its archive key, in a fixed order.
    /// Computed rather than stored, because key paths are not `Sendable`.
    static var stringFields: [(key: String, path: WritableKeyPath<CNContactValues, String>)] {
        [
            ("namePrefix", \.namePrefix),
            ("givenName", \.givenName),
            ("middleName", \.middleName),
            ("familyName", \.familyName),
            ("previousFamilyName", \.previousFamilyName),
            ("nameSuffix", \.nameSuffix),
            ("nickname", \.nickname),
            ("organizationName", \.organizationName),
            ("departmentName", \.departmentName),
            ("jobTitle", \.jobTitle),
            ("phoneticGivenName", \.phoneticGivenName),
            ("phoneticMiddleName", \.phoneticMiddleName),
            ("phoneticFamilyName", \.phoneticFamilyName),
            ("phoneticOrganizationName", \.phoneticOrganizationName),
            ("note", \.note),
        ]
    }
}
