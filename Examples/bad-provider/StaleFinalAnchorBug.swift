// The bug: the last batch of a change enumeration returns the anchor it started from, so the
// system asks from there again and every later sync re-sends the same changes. Nothing is lost, so
// only "another signal brings nothing" notices. Caught by D10 (the system also warns, W1).

import ContactProvider
import Foundation
import KnownBadProviders

final class StaleFinalAnchorEnumerator: ForwardingEnumerator {
    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: StaleAnchorObserver(observer, start: syncAnchor))
    }
}

private final class StaleAnchorObserver: ForwardingChangeObserver {
    let start: ContactItemSyncAnchor
    var sentChanges = false

    init(_ next: any ContactItemChangeObserver, start: ContactItemSyncAnchor) {
        self.start = start
        super.init(next)
    }

    override func didUpdate(_ items: [ContactItem]) {
        sentChanges = sentChanges || !items.isEmpty
        next.didUpdate(items)
    }

    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        sentChanges = sentChanges || !identifiers.isEmpty
        next.didDelete(identifiers)
    }

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        next.didFinishEnumeratingChanges(upTo: !moreComing && sentChanges ? start : syncAnchor, moreComing: moreComing)
    }
}
