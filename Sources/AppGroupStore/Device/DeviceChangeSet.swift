import Foundation

/// Changes to the device's own contacts and groups that are saved together, all or nothing (one
/// `CNSaveRequest`, or one `contacts-host device` command).
///
/// They apply in this order, whatever order they were asked in: groups added, contacts added,
/// contacts updated, groups updated, members added, members removed, contacts deleted, groups
/// deleted. So a request may add a contact and a group and make the one a member of the other.
/// (Apple does not document an order; this one makes every request that is valid in some order
/// valid here.)
package struct DeviceChangeSet: Sendable {
    /// New contacts (their identifiers must be new).
    package var addedContacts: [ContactRecord] = []
    /// New values for existing contacts.
    package var updatedContacts: [ContactRecord] = []
    /// Identifiers of contacts to delete (they leave their groups too).
    package var deletedContacts: [String] = []
    /// New groups (with no members: members are added with `addedMembers`).
    package var addedGroups: [DeviceGroup] = []
    /// New names for existing groups (by identifier; members are kept).
    package var updatedGroups: [DeviceGroup] = []
    /// Identifiers of groups to delete (their members stay in the container).
    package var deletedGroups: [String] = []
    /// Contacts to add to groups: (contact identifier, group identifier).
    package var addedMembers: [(contact: String, group: String)] = []
    /// Contacts to take out of groups: (contact identifier, group identifier).
    package var removedMembers: [(contact: String, group: String)] = []
    /// Who saves them (Apple's `CNSaveRequest.transactionAuthor`): recorded with the change, so a
    /// change history fetch that excludes this author leaves it out. Nil names nobody.
    package var author: String?

    /// An empty change set.
    package init() {}

    /// Whether there is nothing to save.
    package var isEmpty: Bool {
        addedContacts.isEmpty && updatedContacts.isEmpty && deletedContacts.isEmpty && addedGroups.isEmpty
            && updatedGroups.isEmpty && deletedGroups.isEmpty && addedMembers.isEmpty && removedMembers.isEmpty
    }
}

/// Why a change to the device's own contacts was refused; nothing of the change set was saved.
package enum DeviceContactsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An added contact's identifier is already taken.
    case contactExists(String)
    /// No contact of the device's own has this identifier (an update, a delete, a membership).
    case noSuchContact(String)
    /// An added group's identifier is already taken.
    case groupExists(String)
    /// No group has this identifier.
    case noSuchGroup(String)

    package var description: String {
        switch self {
        case .contactExists(let identifier):
            "the device already has a contact with identifier '\(identifier)': update it instead of adding it"
        case .noSuchContact(let identifier):
            "the device's own contacts have no contact with identifier '\(identifier)' (provided contacts are read-only)"
        case .groupExists(let identifier):
            "the device already has a group with identifier '\(identifier)': update it instead of adding it"
        case .noSuchGroup(let identifier):
            "the device has no group with identifier '\(identifier)'"
        }
    }
}
