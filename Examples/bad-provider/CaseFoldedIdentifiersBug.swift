// The bug: the provider keys its index by `identifier.lowercased()` (written for UUIDs, whose case
// it thought did not matter) and hands the system that key instead of the identifier. With
// lowercase identifiers (most test data) nothing shows; an upper-case UUID arrives as another
// identifier, and two identifiers that differ only in case become one contact. Caught by C3/C4
// through the kit's identifier shapes (issue 30, item 7).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class CaseFoldedIdentifiersEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: CaseFoldingContentObserver(observer))
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: CaseFoldingChangeObserver(observer))
    }

    static func folded(_ items: [ContactItem]) -> [ContactItem] {
        items.map { item in
            var record = ContactRecord(item)
            record.identifier = record.identifier.lowercased()
            return record.makeItem()
        }
    }
}

private final class CaseFoldingContentObserver: ForwardingContentObserver {
    override func didEnumerate(_ items: [ContactItem]) {
        next.didEnumerate(CaseFoldedIdentifiersEnumerator.folded(items))
    }
}

private final class CaseFoldingChangeObserver: ForwardingChangeObserver {
    override func didUpdate(_ items: [ContactItem]) { next.didUpdate(CaseFoldedIdentifiersEnumerator.folded(items)) }
    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        next.didDelete(identifiers.map { ContactItem.Identifier($0.value.lowercased()) })
    }
}
