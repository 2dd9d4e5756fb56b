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
        let baselines = groups ? reads.map { $0.1.groupBaseline } : []
        for ((_, changes), baseline) in zip(reads, baselines) {
            let added = Set(baseline.groups.filter { $0.before == nil }.map(\.identifier))
            for group in changes.groupsNow where added.contains(group.identifier) {
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
        for ((store, changes), baseline) in zip(reads, baselines) {
            events += try groupEvents(store, changes, baseline)
        }
        return events
    }

    /// Renamed groups, members added and removed, groups deleted (the device's store only has groups):
    /// each group and membership a save not excluded changed, from before that save to now.
    private func groupEvents(
        _ store: ChangeHistoryReader.Store, _ changes: ChangeHistoryReader.Changes, _ baseline: GroupChangeBaseline
    ) throws -> [CNChangeHistoryEvent] {
        let now = Dictionary(changes.groupsNow.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        var renamed: [CNChangeHistoryEvent] = []
        var deleted: [CNChangeHistoryEvent] = []
        for (identifier, before) in baseline.groups {
            guard let before else { continue }  // added: its event comes first
            if let group = now[identifier] {
                if group.name != before.name {
                    renamed.append(CNChangeHistoryUpdateGroupEvent(group: Self.group(group)))
                }
            } else {
                deleted.append(CNChangeHistoryDeleteGroupEvent(groupIdentifier: identifier))
            }
        }
        var added: [CNChangeHistoryEvent] = []
        var removed: [CNChangeHistoryEvent] = []
        for (membership, wasMember) in baseline.memberships where maySee(membership.contact) {
            // A deleted group's members go with its delete event.
            guard let group = now[membership.group] else { continue }
            let isMember = group.members.contains(membership.contact)
            guard isMember != wasMember else { continue }
            // A deleted contact left its groups with its delete event: only members still there.
            guard let record = try store.lookup(membership.contact) else { continue }
            let member = contact(record, membership.contact)
            if isMember {
                added.append(CNChangeHistoryAddMemberToGroupEvent(member: member, group: Self.group(group)))
            } else {
                removed.append(CNChangeHistoryRemoveMemberFromGroupEvent(member: member, group: Self.group(group)))
            }
        }
        return renamed + added + removed + deleted
    }

}
