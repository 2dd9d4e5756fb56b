import Foundation

/// The kind of a container of contacts, as on iOS.
public enum CNContainerType: Int, Sendable {
    /// No particular kind (a Contact Provider extension's contacts are in such a container here).
    case unassigned = 0
    /// The device's own contacts.
    case local = 1
    /// An Exchange account.
    case exchange = 2
    /// A CardDAV account.
    case cardDAV = 3
}

/// A container of contacts: one per account, and here one per Contact Provider domain.
open class CNContainer: NSObject, NSCopying, @unchecked Sendable {
    /// The container's stable identifier.
    open private(set) var identifier: String
    /// The container's display name.
    open private(set) var name: String
    /// The kind of container.
    open private(set) var type: CNContainerType

    package init(identifier: String, name: String, type: CNContainerType) {
        self.identifier = identifier
        self.name = name
        self.type = type
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNContainer else { return false }
        return identifier == other.identifier && name == other.name && type == other.type
    }

    open override var hash: Int { identifier.hashValue }

    /// Containers with these identifiers.
    open class func predicateForContainers(withIdentifiers identifiers: [String]) -> NSPredicate {
        CNStorePredicate(.containers(identifiers))
    }

    /// The container of the contact with this identifier.
    open class func predicateForContainerOfContact(withIdentifier contactIdentifier: String) -> NSPredicate {
        CNStorePredicate(.containerOfContact(contactIdentifier))
    }
}

/// Which entities a store serves (contacts only, as on iOS).
public enum CNEntityType: Int, Sendable {
    /// Contacts.
    case contacts = 0
}

/// Whether the app may read the user's contacts.
public enum CNAuthorizationStatus: Int, Sendable {
    /// The user has not been asked.
    case notDetermined = 0
    /// Access is restricted (parental controls, device management).
    case restricted = 1
    /// The user denied access.
    case denied = 2
    /// Full access.
    case authorized = 3
    /// Access to the contacts the user chose (iOS 18).
    case limited = 4
}
