import Foundation

/// A group of contacts, as on iOS: a name, in the device's own (local) container. A contact may be
/// in several groups (unlike containers); `CNSaveRequest.addMember(_:to:)` puts it in one.
open class CNGroup: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    /// The group's stable identifier (a UUID string for a new group).
    open private(set) var identifier: String
    /// The group's name.
    open var name: String { storedName }
    var storedName: String

    /// An empty group with a fresh identifier (use ``CNMutableGroup`` to name it).
    public override init() {
        identifier = UUID().uuidString
        storedName = ""
    }

    package init(identifier: String, name: String) {
        self.identifier = identifier
        storedName = name
    }

    /// An immutable copy with the same identifier and name.
    open func copy(with zone: NSZone? = nil) -> Any {
        CNGroup(identifier: identifier, name: name)
    }

    /// A ``CNMutableGroup`` with the same identifier and name.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        CNMutableGroup(identifier: identifier, name: name)
    }

    /// Groups are equal when their identifiers and names are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNGroup else { return false }
        return identifier == other.identifier && name == other.name
    }

    open override var hash: Int { identifier.hashValue }

    /// A short description for debugging.
    open override var description: String {
        "<\(type(of: self)): identifier=\(identifier), name=\"\(name)\">"
    }

    /// Groups with these identifiers.
    open class func predicateForGroups(withIdentifiers identifiers: [String]) -> NSPredicate {
        CNStorePredicate(.groupsWithIdentifiers(identifiers))
    }

    /// The groups of the container with this identifier.
    open class func predicateForGroupsInContainer(withIdentifier containerIdentifier: String) -> NSPredicate {
        CNStorePredicate(.groupsInContainer(containerIdentifier))
    }
}

/// A group whose name can be set, to add or update with a `CNSaveRequest`.
open class CNMutableGroup: CNGroup, @unchecked Sendable {
    /// The group's name.
    open override var name: String {
        get { storedName }
        set { storedName = newValue }
    }
}
