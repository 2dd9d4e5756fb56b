// The bug: every content page and change batch starts by reading the whole store (every contact
// of the App Group database, sorted by name, "to find where the page starts") and then hands over
// the page the correct enumerator gives. Every answer is right, and at the kit's usual dozen
// contacts each call takes a millisecond, so every other rule passes; but each call costs time in
// proportion to the address book, so at the system's item limit a page outlasts the page limit.
// Caught by S2 with --contacts N (issue 27, item 6).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class WholeStorePerCallEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        Self.readWholeStore()
        await correct.enumerateContent(in: page, for: observer)
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        Self.readWholeStore()
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }

    /// Reads and sorts every contact, as a provider that pages through a sorted copy of its store does.
    private static func readWholeStore() {
        let contacts = (try? AppDatabase(appGroup: .current).all()) ?? []
        _ = contacts.sorted {
            ($0.familyName, $0.givenName, $0.identifier) < ($1.familyName, $1.givenName, $1.identifier)
        }
    }
}
