import Foundation

/// The keys a formatter reads, so an app fetches them with the contacts it formats
/// (`keysToFetch: [CNContactFormatter.descriptorForRequiredKeys(for: .fullName)]`).
///
/// On iOS a contact fetched without these keys makes the formatter throw; here every contact holds every
/// value (see ``CNContact/isKeyAvailable(_:)``), so the descriptors only name what the formatter reads.
extension CNContactFormatter {
    /// The keys ``string(from:style:)`` reads for `style`.
    ///
    /// - Parameter style: The style the contacts will be formatted in.
    public class func descriptorForRequiredKeys(for style: CNContactFormatterStyle) -> any CNKeyDescriptor {
        switch style {
        case .fullName:
            return CNContactKeyDescriptorList(keys: [
                CNContactTypeKey, CNContactNamePrefixKey, CNContactGivenNameKey, CNContactMiddleNameKey,
                CNContactFamilyNameKey, CNContactNameSuffixKey, CNContactOrganizationNameKey,
            ])
        case .phoneticFullName:
            return CNContactKeyDescriptorList(keys: [
                CNContactPhoneticGivenNameKey, CNContactPhoneticMiddleNameKey, CNContactPhoneticFamilyNameKey,
                CNContactPhoneticOrganizationNameKey,
            ])
        }
    }

    /// The keys ``nameOrder(for:)`` reads (the given and family names).
    public class var descriptorForRequiredKeysForNameOrder: any CNKeyDescriptor {
        CNContactKeyDescriptorList(keys: [CNContactGivenNameKey, CNContactFamilyNameKey])
    }

    /// The keys ``delimiter(for:)`` reads (the given and family names).
    public class var descriptorForRequiredKeysForDelimiter: any CNKeyDescriptor {
        CNContactKeyDescriptorList(keys: [CNContactGivenNameKey, CNContactFamilyNameKey])
    }
}
