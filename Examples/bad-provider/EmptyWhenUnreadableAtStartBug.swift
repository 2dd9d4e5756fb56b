// The bug: the provider reads its store once, when it starts, and takes a store it cannot read for an
// empty one, as the seed demo's `ContactItemDatabase` does (`try?` around reading and decoding its
// file in `init`). Started while the app's save is half done, it reports a complete, empty content
// enumeration and keeps that empty list: the save completes, the app signals, and the change
// enumeration brings nothing, so the system holds none of the app's contacts. A provider that
// started on a readable store is the correct one. Caught by T1, the store torn when the provider
// starts (issue 43, item 12).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class EmptyWhenUnreadableAtStartEnumerator: ForwardingEnumerator {
    /// The marker of the empty list this process keeps.
    static let emptyMarker = Data("empty-at-start".utf8)
    /// Whether the store could not be read when the provider started: then this process serves an empty list.
    private let unreadableAtStart: Bool

    override init(wrapping correct: any ContactItemEnumerator) {
        // The bug: a read that fails is taken for an empty store, once, for the life of the process.
        unreadableAtStart = (try? ProviderDataSource().current()) == nil
        super.init(wrapping: correct)
    }

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        guard unreadableAtStart else { return await correct.enumerateContent(in: page, for: observer) }
        observer.didEnumerate([])
        observer.didFinishEnumeratingContent(upTo: Self.emptyMarker)
    }

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        guard unreadableAtStart else { return await correct.enumerateChanges(startingAt: syncAnchor, for: observer) }
        // Nothing changed in the list it keeps.
        observer.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: false)
    }
}
