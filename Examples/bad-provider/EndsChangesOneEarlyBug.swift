// The bug: `moreComing` is computed as "more than one change left" (`remaining > 1`, an off by one
// where `remaining > 0` is meant), so when exactly one change is left after a batch the provider
// says moreComing: false and the sync ends one change short. The anchor it returns is right, so the
// next signal brings that change: nothing is lost for good, but every sync stops one change early.
// Caught by D10 (another signal right after a sync that caught up brings something; issue 43, item 8).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class EndsChangesOneEarlyEnumerator: ForwardingEnumerator {
    private let database = ProviderDataSource()

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        let head = (try? database.current())?.headSeq
        await correct.enumerateChanges(startingAt: syncAnchor, for: OneEarlyObserver(observer, head: head))
    }
}

private final class OneEarlyObserver: ForwardingChangeObserver {
    let head: Int?

    init(_ next: any ContactItemChangeObserver, head: Int?) {
        self.head = head
        super.init(next)
    }

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        guard let head, let marker = SyncMarker(data: syncAnchor.generationMarker), marker.within == 0 else {
            return next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
        }
        let remaining = head - (marker.seq + syncAnchor.offset)
        // The bug: `> 1` where `> 0` is meant.
        next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: remaining > 1)
    }
}
