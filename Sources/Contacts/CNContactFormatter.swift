import Foundation

/// Formats a contact's name for display.
///
/// Mirrors Apple's `CNContactFormatter`, with fixed English, given-name-first rules
/// (Apple follows the user's locale and settings):
///
/// - ``CNContactFormatterStyle/fullName``: name prefix, given, middle and family names
///   and name suffix, joined by single spaces, skipping empty parts. For an
///   ``CNContactType/organization`` contact, or when every name part is empty, the
///   organization name instead.
/// - ``CNContactFormatterStyle/phoneticFullName``: phonetic given, middle and family
///   names, joined the same way; when all are empty, the phonetic organization name.
///
/// The result is `nil` when there is nothing to show.
open class CNContactFormatter: Formatter, NSSecureCoding {
    /// The style this formatter uses; ``CNContactFormatterStyle/fullName`` by default.
    open var style: CNContactFormatterStyle = .fullName

    /// Creates a formatter with the ``CNContactFormatterStyle/fullName`` style.
    public override init() {
        super.init()
    }

    // MARK: NSSecureCoding

    /// `true`: contact formatters support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a formatter archived by ``encode(with:)``.
    ///
    /// - Parameter coder: A keyed decoder.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        style = CNContactFormatterStyle(rawValue: coder.decodeInteger(forKey: "style")) ?? .fullName
    }

    /// Encodes the formatter's style with a keyed encoder.
    ///
    /// - Parameter coder: A keyed encoder.
    open override func encode(with coder: NSCoder) {
        coder.encode(style.rawValue, forKey: "style")
    }

    // MARK: Formatting

    /// Returns the contact's name in the given style, or `nil` when there is nothing to show.
    ///
    /// - Parameters:
    ///   - contact: The contact to format.
    ///   - style: The style to use.
    open class func string(from contact: CNContact, style: CNContactFormatterStyle) -> String? {
        switch style {
        case .fullName:
            let organization = contact.organizationName
            if contact.contactType == .organization, !organization.isEmpty {
                return organization
            }
            let name = joined([
                contact.namePrefix, contact.givenName, contact.middleName,
                contact.familyName, contact.nameSuffix,
            ])
            return name ?? nonEmpty(organization)
        case .phoneticFullName:
            let name = joined([
                contact.phoneticGivenName, contact.phoneticMiddleName, contact.phoneticFamilyName,
            ])
            return name ?? nonEmpty(contact.phoneticOrganizationName)
        }
    }

    /// The order in which to display the contact's names: always
    /// ``CNContactDisplayNameOrder/givenNameFirst`` in this stand-in.
    ///
    /// - Parameter contact: The contact whose names will be displayed.
    open class func nameOrder(for contact: CNContact) -> CNContactDisplayNameOrder {
        .givenNameFirst
    }

    /// The text placed between name parts: always a single space in this stand-in.
    ///
    /// - Parameter contact: The contact whose names will be displayed.
    open class func delimiter(for contact: CNContact) -> String {
        " "
    }

    /// Returns the contact's name in this formatter's ``style``, or `nil` when there is nothing to show.
    ///
    /// - Parameter contact: The contact to format.
    open func string(from contact: CNContact) -> String? {
        Self.string(from: contact, style: style)
    }

    /// Formats `obj` when it is a ``CNContact``; `nil` otherwise.
    ///
    /// - Parameter obj: The object to format.
    open override func string(for obj: Any?) -> String? {
        guard let contact = obj as? CNContact else { return nil }
        return string(from: contact)
    }

    // MARK: Helpers

    /// The non-empty parts joined by single spaces, or `nil` when every part is empty.
    private static func joined(_ parts: [String]) -> String? {
        nonEmpty(parts.filter { !$0.isEmpty }.joined(separator: " "))
    }

    /// The string, or `nil` when it is empty.
    private static func nonEmpty(_ string: String) -> String? {
        string.isEmpty ? nil : string
    }
}
