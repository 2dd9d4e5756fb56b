// The enumerator, as a provider that mirrors an app's own JSON file writes it: the app keeps its
// contacts in `ContactItems.json` (through `ContactItemDatabase`), and the extension keeps what it
// has already sent to the system in the App Group's `UserDefaults`, so that after being killed and
// relaunched it still knows which contacts were deleted since.

import ContactProvider
import Contacts
import Foundation
import OSLog

class RootContainerEnumerator: ContactItemEnumerator {
    private let logger = Logger(subsystem: "nl.wesleydegroot.contactproviderdemo.provider", category: "enumerator")

    /// What has been sent to the system: identifier → fingerprint of the values sent.
    private let defaults = UserDefaults(suiteName: "group.nl.wesleydegroot.contactproviderdemo")
    private let sentKey = "sentContacts"
    private let changeCountKey = "changeCount"

    func configure(for domain: ContactProviderDomain) {
        logger.info("configured for \(domain.identifier, privacy: .public)")
    }

    func enumerateContent(in page: ContactItemPage, for observer: ContactItemContentObserver) async {
        let database = ContactItemDatabase()
        observer.didEnumerate(database.contactItems)
        let generation = "generation-1".data(using: .utf8)!
        observer.didFinishEnumeratingContent(upTo: generation)
        // Remembered only once the system has it: a crash before this line re-sends, never loses.
        save(sent: fingerprints(of: database), changeCount: 0)
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: ContactItemChangeObserver) async {
        let database = ContactItemDatabase()
        let current = fingerprints(of: database)
        let sent = defaults?.dictionary(forKey: sentKey) as? [String: String] ?? [:]

        let updated = database.contactItems.filter { item in
            guard case .contact(_, let identifier) = item else { return false }
            return sent[identifier.value] != current[identifier.value]
        }
        let deleted = sent.keys.filter { current[$0] == nil }.sorted().map { ContactItem.Identifier($0) }
        if !updated.isEmpty { observer.didUpdate(updated) }
        if !deleted.isEmpty { observer.didDelete(deleted) }
        logger.info("changes: \(updated.count) updated, \(deleted.count) deleted")

        let changeCount = (defaults?.integer(forKey: changeCountKey) ?? 0) + 1
        let anchor = ContactItemSyncAnchor(generationMarker: syncAnchor.generationMarker, offset: changeCount)
        observer.didFinishEnumeratingChanges(upTo: anchor, moreComing: false)
        save(sent: current, changeCount: changeCount)
    }

    func invalidate() async {
        defaults?.synchronize()
    }

    private func fingerprints(of database: ContactItemDatabase) -> [String: String] {
        var result: [String: String] = [:]
        for item in database.contactItemsJSON {
            result[item.identifier] = [item.firstName, item.lastName, item.phoneNumber ?? "", item.emailAddress ?? ""]
                .joined(separator: "\u{1F}")
        }
        return result
    }

    private func save(sent: [String: String], changeCount: Int) {
        defaults?.set(sent, forKey: sentKey)
        defaults?.set(changeCount, forKey: changeCountKey)
        defaults?.synchronize()
    }
}
