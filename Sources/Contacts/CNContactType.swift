/// Whether a contact describes a person or an organization.
///
/// Mirrors Apple's `CNContactType`; the raw values match Apple's.
public enum CNContactType: Int, Sendable {
    /// The contact is a person.
    case person = 0
    /// The contact is an organization (a company, a shop, a service).
    case organization = 1
}
