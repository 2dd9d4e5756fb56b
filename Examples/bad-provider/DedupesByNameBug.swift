// The bug: each page or batch goes through a dictionary keyed by the contact's full name (meant
// to drop the duplicates an import created), so two different people of the same name, or two
// organisation cards without a person name, become one and the other never arrives. Random data
// seldom has such a pair in one page; the kit always does (issue 30, item 9). Caught by C4.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class DedupesByNameEnumerator: ItemTransformingEnumerator {
    /// One item per full name in each page or batch: the first one wins.
    override func transform(_ items: [ContactItem]) -> [ContactItem] {
        var seen: Set<String> = []
        return items.filter { item in
            let record = ContactRecord(item)
            return seen.insert(record.givenName + " " + record.familyName).inserted
        }
    }
}
