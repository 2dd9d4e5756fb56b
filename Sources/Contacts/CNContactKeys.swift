// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

// The keys of a contact's properties, with Apple's values (each is the property's name), for
// key descriptors and `isKeyAvailable(_:)`.

/// The key of ``CNContact/identifier``.
public let CNContactIdentifierKey: String = "identifier"
/// The key of ``CNContact/contactType``.
public let CNContactTypeKey: String = "contactType"
/// The key of ``CNContact/namePrefix``.
public let CNContactNamePrefixKey: String = "namePrefix"
/// The key of ``CNContact/givenName``.
public let CNContactGivenNameKey: String = "givenName"
/// The key of ``CNContact/middleName``.
public let CNContactMiddleNameKey: String = "middleName"
/// The key of ``CNContact/familyName``.
public let CNContactFamilyNameKey: String = "familyName"
/// The key of ``CNContact/previousFamilyName``.
public let CNContactPreviousFamilyNameKey: String = "previousFamilyName"
/// The key of ``CNContact/nameSuffix``.
public let CNContactNameSuffixKey: String = "nameSuffix"
/// The key of ``CNContact/nickname``.
public let CNContactNicknameKey: String = "nickname"
/// The key of ``CNContact/organizationName``.
public let CNContactOrganizationNameKey: String = "organizationName"
/// The key of ``CNContact/departmentName``.
public let CNContactDepartmentNameKey: String = "departmentName"
/// The key of ``CNContact/jobTitle``.
public let CNContactJobTitleKey: String = "jobTitle"
/// The key of ``CNContact/phoneticGivenName``.
public let CNContactPhoneticGivenNameKey: String = "phoneticGivenName"
/// The key of ``CNContact/phoneticMiddleName``.
public let CNContactPhoneticMiddleNameKey: String = "phoneticMiddleName"
/// The key of ``CNContact/phoneticFamilyName``.
public let CNContactPhoneticFamilyNameKey: String = "phoneticFamilyName"
/// The key of ``CNContact/phoneticOrganizationName``.
public let CNContactPhoneticOrganizationNameKey: String = "phoneticOrganizationName"
/// The key of ``CNContact/birthday``.
public let CNContactBirthdayKey: String = "birthday"
/// The key of ``CNContact/nonGregorianBirthday``.
public let CNContactNonGregorianBirthdayKey: String = "nonGregorianBirthday"
/// The key of ``CNContact/note``.
public let CNContactNoteKey: String = "note"
/// The key of ``CNContact/imageData``.
public let CNContactImageDataKey: String = "imageData"
/// The key of ``CNContact/thumbnailImageData``.
public let CNContactThumbnailImageDataKey: String = "thumbnailImageData"
/// The key of ``CNContact/imageDataAvailable``.
public let CNContactImageDataAvailableKey: String = "imageDataAvailable"
/// The key of ``CNContact/phoneNumbers``.
public let CNContactPhoneNumbersKey: String = "phoneNumbers"
/// The key of ``CNContact/emailAddresses``.
public let CNContactEmailAddressesKey: String = "emailAddresses"
/// The key of ``CNContact/postalAddresses``.
public let CNContactPostalAddressesKey: String = "postalAddresses"
/// The key of ``CNContact/dates``.
public let CNContactDatesKey: String = "dates"
/// The key of ``CNContact/urlAddresses``.
public let CNContactUrlAddressesKey: String = "urlAddresses"
/// The key of ``CNContact/contactRelations``.
public let CNContactRelationsKey: String = "contactRelations"
/// The key of ``CNContact/socialProfiles``.
public let CNContactSocialProfilesKey: String = "socialProfiles"
/// The key of ``CNContact/instantMessageAddresses``.
public let CNContactInstantMessageAddressesKey: String = "instantMessageAddresses"

extension CNContact {
    /// Every key a contact has a value for; on Linux a contact always holds all of them.
    static var allKeys: [String] {
        [
            CNContactIdentifierKey, CNContactTypeKey, CNContactNamePrefixKey, CNContactGivenNameKey,
            CNContactMiddleNameKey, CNContactFamilyNameKey, CNContactPreviousFamilyNameKey, CNContactNameSuffixKey,
            CNContactNicknameKey, CNContactOrganizationNameKey, CNContactDepartmentNameKey, CNContactJobTitleKey,
            CNContactPhoneticGivenNameKey, CNContactPhoneticMiddleNameKey, CNContactPhoneticFamilyNameKey,
            CNContactPhoneticOrganizationNameKey, CNContactBirthdayKey, CNContactNonGregorianBirthdayKey,
            CNContactNoteKey, CNContactImageDataKey, CNContactThumbnailImageDataKey, CNContactImageDataAvailableKey,
            CNContactPhoneNumbersKey, CNContactEmailAddressesKey, CNContactPostalAddressesKey, CNContactDatesKey,
            CNContactUrlAddressesKey, CNContactRelationsKey, CNContactSocialProfilesKey,
            CNContactInstantMessageAddressesKey,
        ]
    }

    /// Whether the contact has a value for `key`.
    ///
    /// On iOS a contact fetched with only some keys has only those; a contact here is never
    /// partially fetched, so every key of ``CNContact`` is available and any other string is not.
    public func isKeyAvailable(_ key: String) -> Bool {
        Self.allKeys.contains(key)
    }

    /// Whether the contact has values for every key the descriptors name.
    public func areKeysAvailable(_ keyDescriptors: [any CNKeyDescriptor]) -> Bool {
        keyDescriptors.allSatisfy { $0.contactKeys.allSatisfy(isKeyAvailable) }
    }
}
