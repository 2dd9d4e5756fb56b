// The bug: the provider keys its index by `identifier.lowercased()` (written for UUIDs, whose case
// it thought did not matter) and hands the system that key instead of the identifier. With
// lowercase identifiers (most test data) nothing shows; an upper-case UUID arrives as another
// identifier, and two identifiers that differ only in case become one contact. Caught by C3/C4
// through the kit's identifier shapes (issue 30, item 7).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class CaseFoldedIdentifiersEnumerator: ItemTransformingEnumerator {
    override func transform(_ items: [ContactItem]) -> [ContactItem] {
        items.map { item in
            var record = ContactRecord(item)
            record.identifier = record.identifier.lowercased()
            return record.makeItem()
        }
    }

    override func transform(deleted identifiers: [ContactItem.Identifier]) -> [ContactItem.Identifier] {
        identifiers.map { ContactItem.Identifier($0.value.lowercased()) }
    }
}
