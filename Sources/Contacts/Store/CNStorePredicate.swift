import Foundation

/// The predicates `CNContact` and `CNContainer` make, which `CNContactStore` understands (as on iOS,
/// where only these predicates are valid for a store's fetches: `NSPredicate(format:)` and block
/// predicates are refused with `CNError.predicateInvalid`).
final class CNStorePredicate: NSPredicate {
    enum Kind {
        case contactsMatchingName(String)
        case contactsWithIdentifiers([String])
        case contactsInContainer(String)
        case contactsMatchingEmailAddress(String)
        case contactsMatchingPhoneNumber(String)
        case containers([String])
        case containerOfContact(String)
        case contactsInGroup(String)
        case groupsWithIdentifiers([String])
        case groupsInContainer(String)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// What the predicate selects, for error messages.
    var summary: String { "\(kind)" }
}

extension CNContact {
    /// Contacts whose name matches `name` (each word a prefix of a name component, case- and
    /// diacritic-insensitive, as Contacts matches names).
    public class func predicateForContacts(matchingName name: String) -> NSPredicate {
        CNStorePredicate(.contactsMatchingName(name))
    }

    /// Contacts with these identifiers.
    public class func predicateForContacts(withIdentifiers identifiers: [String]) -> NSPredicate {
        CNStorePredicate(.contactsWithIdentifiers(identifiers))
    }

    /// Contacts in the container with this identifier.
    public class func predicateForContactsInContainer(withIdentifier containerIdentifier: String) -> NSPredicate {
        CNStorePredicate(.contactsInContainer(containerIdentifier))
    }

    /// Contacts in the group with this identifier.
    public class func predicateForContactsInGroup(withIdentifier groupIdentifier: String) -> NSPredicate {
        CNStorePredicate(.contactsInGroup(groupIdentifier))
    }

    /// Contacts with this e-mail address (case-insensitive).
    public class func predicateForContacts(matchingEmailAddress emailAddress: String) -> NSPredicate {
        CNStorePredicate(.contactsMatchingEmailAddress(emailAddress))
    }

    /// Contacts with this phone number (compared by digits).
    public class func predicateForContacts(matching phoneNumber: CNPhoneNumber) -> NSPredicate {
        CNStorePredicate(.contactsMatchingPhoneNumber(phoneNumber.stringValue))
    }
}
