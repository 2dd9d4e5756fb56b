// The enumerator, as a provider that mirrors an app's own JSON file writes it: the app keeps its
// contacts in `ContactItems.json` (through `ContactItemDatabase`), and the extension keeps what it
// has sent to the system in the App Group's `UserDefaults`, so that after being killed and
// relaunched it still knows which contacts were deleted since.
//
// What was sent is kept per anchor, not only the latest: the system may ask for the changes from
// the same anchor again (it crashed before committing the batch), and must then get them again.
// Only the states older than the anchor the system asks from are dropped: asking from an anchor
// means everything before it was committed.

import ContactProvider
import Contacts
import Foundation
import OSLog

class RootContainerEnumerator: ContactItemEnumerator {
    private let logger = Logger(subsystem: "nl.wesleydegroot.contactproviderdemo.provider", category: "enumerator")

    /// What has been sent to the system: identifier → fingerprint of the values sent.
    private let defaults = UserDefaults(suiteName: "group.nl.wesleydegroot.contactproviderdemo")
    /// What the system holds at each anchor offset: offset (as text) → identifier → fingerprint.
    private let sentKey = "sentAtAnchor"

    func configure(for domain: ContactProviderDomain) {
        logger.info("configured for \(domain.identifier, privacy: .public)")
    }

    func enumerateContent(in page: ContactItemPage, for observer: ContactItemContentObserver) async {
        guard Self.storeIsReadable() else {
            // A resumable error: the system keeps what it has and asks again later (R28).
            observer.didFinishEnumeratingContentWithError(CocoaError(.fileReadCorruptFile))
            return
        }
        let database = ContactItemDatabase()
        observer.didEnumerate(database.contactItems)
        let generation = "generation-1".data(using: .utf8)!
        observer.didFinishEnumeratingContent(upTo: generation)
        // The first anchor is offset 0 of this generation: what it holds is what was just sent.
        save(["0": fingerprints(of: database)])
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: ContactItemChangeObserver) async {
        var history = defaults?.dictionary(forKey: sentKey) as? [String: [String: String]] ?? [:]
        guard let sent = history[String(syncAnchor.offset)] else {
            // An anchor this extension never gave out (or forgot): the system starts over.
            observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
            return
        }
        guard Self.storeIsReadable() else {
            // Not `changeAnchorExpired`: that would make the system discard every contact (R38).
            observer.didFinishEnumeratingChangesWithError(CocoaError(.fileReadCorruptFile))
            return
        }
        let database = ContactItemDatabase()
        let current = fingerprints(of: database)
        let updated = database.contactItems.filter { item in
            guard case .contact(_, let identifier) = item else { return false }
            return sent[identifier.value] != current[identifier.value]
        }
        let deleted = sent.keys.filter { current[$0] == nil }.sorted().map { ContactItem.Identifier($0) }
        if !updated.isEmpty { observer.didUpdate(updated) }
        if !deleted.isEmpty { observer.didDelete(deleted) }
        logger.info("changes: \(updated.count) updated, \(deleted.count) deleted")

        // Asking from this anchor means the system committed it: older states are no longer needed,
        // and neither are the ones after it, which the system never committed. The next anchor depends
        // only on this one, so asking again gives the same batch (R37).
        let next = syncAnchor.offset + 1
        history = [String(syncAnchor.offset): sent, String(next): current]
        let anchor = ContactItemSyncAnchor(generationMarker: syncAnchor.generationMarker, offset: next)
        observer.didFinishEnumeratingChanges(upTo: anchor, moreComing: false)
        save(history)
    }

    func invalidate() async {
        defaults?.synchronize()
    }

    private func fingerprints(of database: ContactItemDatabase) -> [String: String] {
        var result: [String: String] = [:]
        for item in database.contactItemsJSON {
            result[item.identifier] = fingerprint(of: item)
        }
        return result
    }

    /// What changes when the app edits a contact: every field the app's file keeps.
    func fingerprint(of item: ContactItemDatabase.ContactItemJSON) -> String {
        [item.firstName, item.lastName, item.phoneNumber ?? "", item.emailAddress ?? ""].joined(separator: "\u{1F}")
    }

    /// Whether the app's file can be read now: absent (the app has saved nothing yet) or a whole
    /// JSON array. The app writes it in place, not atomically, so a read can meet it half written,
    /// and `ContactItemDatabase` reads such a file as no contacts at all; sending the system that
    /// (every contact deleted) would lose them.
    static func storeIsReadable() -> Bool {
        guard
            let url = FileManager.default.containerURL(
                forSecurityApplicationGroupIdentifier: "group.nl.wesleydegroot.contactproviderdemo")?
                .appendingPathComponent("ContactItems.json")
        else { return false }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return !FileManager.default.fileExists(atPath: url.path)
        }
        return (try? JSONDecoder().decode([ContactItemDatabase.ContactItemJSON].self, from: data)) != nil
    }

    private func save(_ history: [String: [String: String]]) {
        defaults?.set(history, forKey: sentKey)
        defaults?.synchronize()
    }
}
