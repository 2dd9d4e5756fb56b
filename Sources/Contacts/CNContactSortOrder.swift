/// The order in which contacts are sorted by name.
///
/// Mirrors Apple's `CNContactSortOrder`; the raw values match Apple's. A ``CNContactFetchRequest``
/// sorts with it (its `sortOrder` is ``none`` by default), and ``CNContact/comparator(forNameSortOrder:)``
/// makes a comparator from it.
public enum CNContactSortOrder: Int, Sendable {
    /// No sorting: contacts come in the store's own order.
    case none = 0
    /// The user's order, ``CNContactsUserDefaults/sortOrder`` (by family name on the simulated device).
    case userDefault = 1
    /// By given name, then family name.
    case givenName = 2
    /// By family name, then given name.
    case familyName = 3
}
