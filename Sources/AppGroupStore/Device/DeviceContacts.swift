import Foundation

/// The device's own contacts: the user's address book beside every provider's read-only list
/// (Apple's local container), shared by every process of the App Group.
///
/// ```
/// <App Group>/device/contacts/   a journaled store (snapshot + journal + lock), as the system's
///                                stores: contacts as ContactRecords, groups in its meta
/// ```
///
/// Every process (an app's `CNContactStore`, `contacts-host device`) reads it without waiting (see
/// `JournaledStore.readWithoutLock`) and writes it under the exclusive lock, each change set one
/// durable journal entry, so two processes saving at once never lose either's change, and a crash
/// loses nothing acknowledged. A save's transaction author (``DeviceChangeSet/author``) is written in
/// its entry's line, so the change history can leave out the changes of authors a fetch excludes.
package struct DeviceContacts: Sendable {
    /// The App Group whose device this is.
    package let appGroup: AppGroup

    /// The device of `appGroup`.
    package init(appGroup: AppGroup) {
        self.appGroup = appGroup
    }

    /// `<App Group>/device`: the device's own state (contacts, authorization).
    package var directory: String { appGroup.path + "/device" }
    /// `<App Group>/device/contacts`: the journaled store of the user's own contacts.
    package var contactsDirectory: String { directory + "/contacts" }

    /// What the device holds: its contacts (in the order they were first saved) and groups.
    package struct Contents: Sendable {
        /// The user's own contacts.
        package var contacts: [ContactRecord]
        /// The groups, in the order they were created.
        package var groups: [DeviceGroup]
    }

    /// The journaled store of the user's own contacts (for `doctor`, which checks and repairs it).
    package var store: JournaledStore<DeviceMeta> {
        JournaledStore<DeviceMeta>(directory: contactsDirectory)
    }

    /// The device's contacts and groups now (empty before anything was saved).
    package func contents() throws -> Contents {
        guard FileManager.default.fileExists(atPath: JournalFiles.snapshot(in: contactsDirectory)) else {
            return Contents(contacts: [], groups: [])
        }
        let state = try store.load()
        return Contents(contacts: state.contacts, groups: state.meta?.groups ?? [])
    }

    /// Saves `changes` in one durable write, or nothing when one of them is refused.
    ///
    /// - Throws: ``DeviceContactsError`` naming the contact or group that made the change set
    ///   invalid; `StoreError` when the store cannot be read or written.
    package func save(_ changes: DeviceChangeSet) throws {
        guard !changes.isEmpty else { return }
        try appGroup.ensureExists()
        try SecureFile.ensureDirectories([directory, contactsDirectory], under: appGroup.path)
        try store.write { writer in
            let state = try writer.identifiers()
            var plan = DeviceSavePlan(
                exists: { state.contains($0) }, groups: state.meta?.groups ?? [])
            try plan.apply(changes)
            try writer.append(
                upsert: plan.upserted, delete: plan.deleted, meta: DeviceMeta(groups: plan.groups),
                author: changes.author)
        }
    }
}

/// A change set checked against the store's contents under the writer's lock: what to write.
struct DeviceSavePlan {
    private let existedBefore: (String) -> Bool
    private var added: Set<String> = []
    private var removed: Set<String> = []
    private(set) var groups: [DeviceGroup]
    private(set) var upserted: [ContactRecord] = []
    private(set) var deleted: [String] = []

    init(exists: @escaping (String) -> Bool, groups: [DeviceGroup]) {
        existedBefore = exists
        self.groups = groups
    }

    private func exists(_ identifier: String) -> Bool {
        added.contains(identifier) || (existedBefore(identifier) && !removed.contains(identifier))
    }

    private func groupIndex(_ identifier: String) throws -> Int {
        guard let index = groups.firstIndex(where: { $0.identifier == identifier }) else {
            throw DeviceContactsError.noSuchGroup(identifier)
        }
        return index
    }

    /// Checks and applies `changes` in ``DeviceChangeSet``'s order.
    mutating func apply(_ changes: DeviceChangeSet) throws {
        for group in changes.addedGroups {
            guard !groups.contains(where: { $0.identifier == group.identifier }) else {
                throw DeviceContactsError.groupExists(group.identifier)
            }
            groups.append(DeviceGroup(identifier: group.identifier, name: group.name))
        }
        for record in changes.addedContacts {
            guard !exists(record.identifier) else { throw DeviceContactsError.contactExists(record.identifier) }
            added.insert(record.identifier)
            upserted.append(record)
        }
        for record in changes.updatedContacts {
            guard exists(record.identifier) else { throw DeviceContactsError.noSuchContact(record.identifier) }
            upserted.append(record)
        }
        for group in changes.updatedGroups {
            groups[try groupIndex(group.identifier)].name = group.name
        }
        for (contact, group) in changes.addedMembers {
            guard exists(contact) else { throw DeviceContactsError.noSuchContact(contact) }
            let index = try groupIndex(group)
            if !groups[index].members.contains(contact) { groups[index].members.append(contact) }
        }
        for (contact, group) in changes.removedMembers {
            let index = try groupIndex(group)
            groups[index].members.removeAll { $0 == contact }
        }
        for identifier in changes.deletedContacts {
            guard exists(identifier) else { throw DeviceContactsError.noSuchContact(identifier) }
            added.remove(identifier)
            removed.insert(identifier)
            upserted.removeAll { $0.identifier == identifier }
            deleted.append(identifier)
            for index in groups.indices { groups[index].members.removeAll { $0 == identifier } }
        }
        for identifier in changes.deletedGroups {
            groups.remove(at: try groupIndex(identifier))
        }
    }
}
