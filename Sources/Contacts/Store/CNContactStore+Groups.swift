import AppGroupStore
import Foundation

// Groups: the device's own, in its local container (providers supply no groups).
extension CNContactStore {
    /// `groups(matching:)`.
    func fetchGroups(matching predicate: NSPredicate?) throws -> [CNGroup] {
        _ = try readableContactIdentifiers()
        let all = try DeviceContacts(appGroup: appGroup).contents().groups.map {
            CNGroup(identifier: $0.identifier, name: $0.name)
        }
        guard let predicate else { return all }
        switch (predicate as? CNStorePredicate)?.kind {
        case .groupsWithIdentifiers(let identifiers): return all.filter { identifiers.contains($0.identifier) }
        case .groupsInContainer(let identifier): return identifier == Self.localContainerIdentifier ? all : []
        default:
            throw CNError(
                .predicateInvalid,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "groups(matching:) takes the predicates CNGroup makes (predicateForGroups(withIdentifiers:), predicateForGroupsInContainer(withIdentifier:))."
                ])
        }
    }

    /// The identifiers of the contacts in the group `identifier` (none for an unknown group).
    func groupMembers(_ identifier: String) throws -> Set<String> {
        let groups = try DeviceContacts(appGroup: appGroup).contents().groups
        return Set(groups.first { $0.identifier == identifier }?.members ?? [])
    }

    /// The group changes of `saveRequest`, for the device's change set.
    func groupChanges(_ saveRequest: CNSaveRequest, into changes: inout DeviceChangeSet) throws {
        for (group, container) in saveRequest.addedGroups {
            try checkWritable(container: container ?? Self.localContainerIdentifier)
            changes.addedGroups.append(DeviceGroup(identifier: group.identifier, name: group.name))
        }
        changes.updatedGroups += saveRequest.updatedGroups.map { DeviceGroup(identifier: $0.identifier, name: $0.name) }
        changes.deletedGroups += saveRequest.deletedGroups.map(\.identifier)
        for (contact, group) in saveRequest.addedMembers + saveRequest.removedMembers
        where Self.isProvidedContactIdentifier(contact.identifier) {
            // Groups are the local container's, and a contact is in the groups of its own container
            // only (Apple's containmentScope).
            throw CNError(
                .containmentScope,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The contact \(contact.identifier) is a Contact Provider extension's: it cannot be a member of the device's group \(group.identifier)."
                ])
        }
        changes.addedMembers += saveRequest.addedMembers.map { ($0.0.identifier, $0.1.identifier) }
        changes.removedMembers += saveRequest.removedMembers.map { ($0.0.identifier, $0.1.identifier) }
    }
}
