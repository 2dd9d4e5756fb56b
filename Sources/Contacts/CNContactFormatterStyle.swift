/// The ways a ``CNContactFormatter`` can write a contact's name.
///
/// Mirrors Apple's `CNContactFormatterStyle`; the raw values match Apple's.
public enum CNContactFormatterStyle: Int, Sendable {
    /// The full name: prefix, given, middle and family names, and suffix.
    case fullName = 0
    /// The phonetic full name: the phonetic given, middle and family names.
    case phoneticFullName = 1
}
