// The bug: the last batch's anchor is taken from the database's head when the batch is finished,
// not from the state the batch was read from. An edit the app makes while the provider is inside
// enumerateChanges (after it read, before it returns) falls between the two and is never sent.
// Edits between calls are fine, so only a write during a call shows it. Caught by D9.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class AnchorFromNowEnumerator: ForwardingEnumerator {
    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: AnchorFromNowObserver(observer))
    }
}

private final class AnchorFromNowObserver: ForwardingChangeObserver {
    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        guard !moreComing, let state = try? ProviderDataSource().current() else {
            return next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
        }
        let now = SyncMarker(generation: state.generation, seq: state.headSeq)
        next.didFinishEnumeratingChanges(
            upTo: ContactItemSyncAnchor(generationMarker: now.data, offset: 0), moreComing: false)
    }
}
