/// The order in which a contact's given and family names are displayed.
///
/// Mirrors Apple's `CNContactDisplayNameOrder`; the raw values match Apple's.
public enum CNContactDisplayNameOrder: Int, Sendable {
    /// The order the user chose in Settings.
    case userDefault = 0
    /// The given name first, then the family name ("Ada Lovelace").
    case givenNameFirst = 1
    /// The family name first, then the given name ("Lovelace Ada").
    case familyNameFirst = 2
}
