import AppGroupStore
import ContactsInterop
import Foundation

/// Turns each store's net changes into Apple's events, in an order an app can apply one by one:
/// groups added, contacts added, updated and deleted (store by store), groups renamed, members
/// added, members removed, groups deleted. Contacts the app may not see (limited access) are left
/// out, as are group events unless the request includes them.
struct ChangeHistoryClassifier {
    let request: CNChangeHistoryFetchRequest
    /// With limited access: the contact identifiers the app may see.
    let visible: Set<String>?

    private func maySee(_ identifier: String) -> Bool {
        visible?.contains(identifier) ?? true
    }

    private func contact(_ record: ContactRecord, _ identifier: String) -> CNContact {
        let contact = record.makeContact(identifier: identifier)
        return request.mutableObjects ? contact : contact.copy() as! CNContact
    }

    private static func group(_ group: DeviceGroup) -> CNGroup {
        CNGroup(identifier: group.identifier, name: group.name)
    }

    /// The events for `reads`, each a store and its changes.
    func events(_ reads: [(ChangeHistoryReader.Store, ChangeHistoryReader.Changes)]) throws
        -> [CNChangeHistoryEvent]
    {
        var events: [CNChangeHistoryEvent] = []
        let groups = request.includeGroupChanges
        for (_, changes) in reads where groups {
            let before = Set(changes.groupsBefore.map(\.identifier))
            for group in changes.groupsNow where !before.contains(group.identifier) {
                events.append(
                    CNChangeHistoryAddGroupEvent(
                        group: Self.group(group), containerIdentifier: CNContactStore.localContainerIdentifier))
            }
        }
        for (store, changes) in reads {
            for change in changes.changes {
                let identifier = CNContactStore.contactIdentifier(
                    store.container, ContactRecord(identifier: change.identifier))
                guard maySee(identifier) else { continue }
                if let record = change.record {
                    let contact = contact(record, identifier)
                    events.append(
                        change.existedBefore
                            ? CNChangeHistoryUpdateContactEvent(contact: contact)
                            : CNChangeHistoryAddContactEvent(
                                contact: contact, containerIdentifier: store.container.identifier))
                } else {
                    events.append(CNChangeHistoryDeleteContactEvent(contactIdentifier: identifier))
                }
            }
        }
        guard groups else { return events }
        for (store, changes) in reads {
            events += try groupEvents(store, changes)
        }
        return events
    }

    /// Renamed groups, members added and removed, groups deleted (the device's store only has groups).
    private func groupEvents(_ store: ChangeHistoryReader.Store, _ changes: ChangeHistoryReader.Changes) throws
        -> [CNChangeHistoryEvent]
    {
        let before = Dictionary(changes.groupsBefore.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let now = Set(changes.groupsNow.map(\.identifier))
        var renamed: [CNChangeHistoryEvent] = []
        var added: [CNChangeHistoryEvent] = []
        var removed: [CNChangeHistoryEvent] = []
        for group in changes.groupsNow {
            let old = before[group.identifier]
            if let old, old.name != group.name {
                renamed.append(CNChangeHistoryUpdateGroupEvent(group: Self.group(group)))
            }
            let oldMembers = Set(old?.members ?? [])
            for member in group.members where !oldMembers.contains(member) && maySee(member) {
                if let record = try store.lookup(member) {
                    added.append(
                        CNChangeHistoryAddMemberToGroupEvent(member: contact(record, member), group: Self.group(group)))
                }
            }
            let newMembers = Set(group.members)
            // A deleted contact left its groups with its delete event: only members still there.
            for member in old?.members ?? [] where !newMembers.contains(member) && maySee(member) {
                if let record = try store.lookup(member) {
                    removed.append(
                        CNChangeHistoryRemoveMemberFromGroupEvent(
                            member: contact(record, member), group: Self.group(group)))
                }
            }
        }
        let deleted = changes.groupsBefore.filter { !now.contains($0.identifier) }.map {
            CNChangeHistoryDeleteGroupEvent(groupIdentifier: $0.identifier)
        }
        return renamed + added + removed + deleted
    }

}
