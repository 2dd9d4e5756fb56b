import AppGroupStore
import Foundation

// Saving: the device's own contacts are written; provided contacts are read-only.
extension CNContactStore {
    /// `execute(_:)`.
    func save(_ saveRequest: CNSaveRequest) throws {
        let visible = try readableContactIdentifiers()
        var changes = DeviceChangeSet()
        changes.author = saveRequest.transactionAuthor
        for (contact, container) in saveRequest.added {
            try checkWritable(container: container ?? Self.localContainerIdentifier)
            changes.addedContacts.append(ContactRecord(contact, identifier: contact.identifier))
        }
        for contact in saveRequest.updated {
            try checkWritable(contact: contact.identifier, visible: visible)
            changes.updatedContacts.append(ContactRecord(contact, identifier: contact.identifier))
        }
        for contact in saveRequest.deleted {
            try checkWritable(contact: contact.identifier, visible: visible)
            changes.deletedContacts.append(contact.identifier)
        }
        try groupChanges(saveRequest, into: &changes)
        do {
            try DeviceContacts(appGroup: appGroup).save(changes)
        } catch let error as DeviceContactsError {
            throw Self.saveError(error)
        }
        if visible != nil, !changes.addedContacts.isEmpty {
            // With limited access, the contacts an app creates are among those it may see (iOS 18).
            var setting = try DeviceAuthorization.read(in: appGroup)
            setting.granted += changes.addedContacts.map(\.identifier)
            try setting.write(in: appGroup)
        }
    }

    func checkWritable(container identifier: String) throws {
        guard identifier != Self.localContainerIdentifier else { return }
        let known = try deviceContainers().contains { $0.container.identifier == identifier }
        throw CNError(
            known ? .parentContainerNotWritable : .parentRecordDoesNotExist,
            userInfo: [
                NSLocalizedDescriptionKey: known
                    ? "The container \(identifier) is a Contact Provider extension's: it is read-only to apps (add to the default container, \(Self.localContainerIdentifier))."
                    : "No container has the identifier \(identifier) (the device's own is \(Self.localContainerIdentifier))."
            ])
    }

    private func checkWritable(contact identifier: String, visible: Set<String>?) throws {
        if Self.isProvidedContactIdentifier(identifier) {
            throw CNError(
                .recordNotWritable,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The contact \(identifier) was supplied by a Contact Provider extension: it is read-only to apps (the extension's app changes it and signals a sync)."
                ])
        }
        if let visible, !visible.contains(identifier) {
            throw CNError(
                .recordDoesNotExist,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No contact the app may see has the identifier \(identifier) (access is limited to the contacts the user chose)."
                ])
        }
    }

    /// The device's refusal as Apple's store words it.
    static func saveError(_ error: DeviceContactsError) -> CNError {
        let code: CNError.Code =
            switch error {
            case .contactExists, .groupExists: .insertedRecordAlreadyExists
            case .noSuchContact, .noSuchGroup: .recordDoesNotExist
            }
        return CNError(code, userInfo: [NSLocalizedDescriptionKey: "The save request was refused: \(error)."])
    }
}
