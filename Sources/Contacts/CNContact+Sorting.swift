import Foundation

/// Sorting contacts by name, as Apple's `CNContact.comparator(forNameSortOrder:)` and a fetch request's
/// `sortOrder` do.
///
/// Apple does not document its collation; the simulator's, stated so a test can rely on it:
/// - ``CNContactSortOrder/givenName`` compares given, then family, then middle name;
///   ``CNContactSortOrder/familyName`` compares family, then given, then middle name;
///   ``CNContactSortOrder/userDefault`` is ``CNContactsUserDefaults/sortOrder``.
/// - Empty names are skipped (a contact with only a given name sorts by it under either order). A contact
///   without given, middle and family names (a company) sorts by its organization name in their place, as the
///   Contacts app lists it; a contact with no name and no organization sorts after every named one.
/// - Strings compare ignoring case and diacritics, numbers by value ("Item 2" before "Item 10"),
///   the same on every machine (no locale).
/// - Contacts whose names compare equal are `.orderedSame`; a fetch keeps them in the store's order.
extension CNContact {
    /// A comparator that orders contacts by name in `sortOrder`; ``CNContactSortOrder/none`` finds every pair
    /// the same. A value that is not a ``CNContact`` compares the same as anything.
    ///
    /// - Parameter sortOrder: The order, such as ``CNContactSortOrder/givenName``.
    public class func comparator(forNameSortOrder sortOrder: CNContactSortOrder) -> Comparator {
        { first, second in
            guard let first = first as? CNContact, let second = second as? CNContact else { return .orderedSame }
            return compareNames(first, second, sortOrder)
        }
    }

    /// The keys ``comparator(forNameSortOrder:)`` reads, to fetch with the contacts you sort.
    public class func descriptorForAllComparatorKeys() -> any CNKeyDescriptor {
        CNContactKeyDescriptorList(keys: comparatorKeys)
    }

    /// The keys the comparator reads.
    static let comparatorKeys = [
        CNContactGivenNameKey, CNContactMiddleNameKey, CNContactFamilyNameKey, CNContactOrganizationNameKey,
        CNContactTypeKey,
    ]

    /// `contacts` in `sortOrder` (their own order for ``CNContactSortOrder/none``); the sort is stable.
    static func sorted(_ contacts: [CNContact], by sortOrder: CNContactSortOrder) -> [CNContact] {
        guard sortOrder != .none else { return contacts }
        return contacts.enumerated().sorted { first, second in
            switch compareNames(first.element, second.element, sortOrder) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return first.offset < second.offset
            }
        }.map(\.element)
    }

    /// Compares two contacts' sort names in `sortOrder`.
    static func compareNames(_ first: CNContact, _ second: CNContact, _ sortOrder: CNContactSortOrder)
        -> ComparisonResult
    {
        let order = sortOrder == .userDefault ? CNContactsUserDefaults.shared().sortOrder : sortOrder
        guard order != .none && order != .userDefault else { return .orderedSame }
        let firstName = first.sortNameParts(order)
        let secondName = second.sortNameParts(order)
        // Nameless contacts last.
        switch (firstName.isEmpty, secondName.isEmpty) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedDescending
        case (false, true): return .orderedAscending
        case (false, false): break
        }
        for (left, right) in zip(firstName, secondName) {
            let result = left.compare(right, options: [.caseInsensitive, .diacriticInsensitive, .numeric])
            if result != .orderedSame { return result }
        }
        return firstName.count == secondName.count
            ? .orderedSame : firstName.count < secondName.count ? .orderedAscending : .orderedDescending
    }

    /// The non-empty strings this contact sorts by, most significant first (a contact with only a given name
    /// sorts by it under either order); empty when it has no name and no organization.
    private func sortNameParts(_ order: CNContactSortOrder) -> [String] {
        let names = order == .givenName ? [givenName, familyName, middleName] : [familyName, givenName, middleName]
        let present = names.filter { !$0.isEmpty }
        if !present.isEmpty { return present }
        return organizationName.isEmpty ? [] : [organizationName]
    }
}
