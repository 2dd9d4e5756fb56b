// The bug: each page or batch goes through a dictionary keyed by the contact's full name (meant
// to drop the duplicates an import created), so two different people of the same name, or two
// organisation cards without a person name, become one and the other never arrives. Random data
// seldom has such a pair in one page; the kit always does (issue 30, item 9). Caught by C4.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class DedupesByNameEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: DeduplicatingContentObserver(observer))
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: DeduplicatingChangeObserver(observer))
    }

    /// One item per full name: the first one wins.
    static func deduplicated(_ items: [ContactItem]) -> [ContactItem] {
        var seen: Set<String> = []
        return items.filter { item in
            let record = ContactRecord(item)
            return seen.insert(record.givenName + " " + record.familyName).inserted
        }
    }
}

private final class DeduplicatingContentObserver: ForwardingContentObserver {
    override func didEnumerate(_ items: [ContactItem]) {
        next.didEnumerate(DedupesByNameEnumerator.deduplicated(items))
    }
}

private final class DeduplicatingChangeObserver: ForwardingChangeObserver {
    override func didUpdate(_ items: [ContactItem]) { next.didUpdate(DedupesByNameEnumerator.deduplicated(items)) }
}
