// The bug: the provider guards against an anchor moving backwards, keeping the newer of the anchor it
// started from and the one its batch reached, but compares their versions (the anchor's offset, which
// it keeps as text) as text: "10" sorts before "9", so once a change session passes its tenth change
// the guard keeps the old anchor. The last batch hands its changes over with the anchor it started
// from, and every later sync sends them again. Caught by D10 (another signal right after a sync that
// caught up brings something; issue 43, item 8).

import ContactProvider
import Foundation
import KnownBadProviders

final class VersionsAsTextEnumerator: ForwardingEnumerator {
    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: NewerAnchorObserver(observer, start: syncAnchor))
    }
}

private final class NewerAnchorObserver: ForwardingChangeObserver {
    let start: ContactItemSyncAnchor

    init(_ next: any ContactItemChangeObserver, start: ContactItemSyncAnchor) {
        self.start = start
        super.init(next)
    }

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        // The bug: the newer of two versions chosen by comparing their text.
        let older =
            syncAnchor.generationMarker == start.generationMarker && String(syncAnchor.offset) < String(start.offset)
        next.didFinishEnumeratingChanges(upTo: older ? start : syncAnchor, moreComing: moreComing)
    }
}
