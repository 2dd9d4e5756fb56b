// Not a bug for its app: a provider whose app calls `ContactProviderManager.reset()` whenever it
// resets its store (a "sign out" that empties the address book), so it never needs to notice a reset
// itself. Asked from an anchor of a store that was reset, it answers "no changes" where a provider on
// its own must expire the anchor. Checked without `--reset-calls-manager-reset` it fails E1 (the kit
// reset the data alone, which its app never does); with it, it passes (issue 30, item 3).

import ContactProvider
import Foundation
import KnownBadProviders

final class ReliesOnAppResetEnumerator: ForwardingEnumerator {
    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(
            startingAt: syncAnchor, for: NoExpiryChangeObserver(observer, anchor: syncAnchor))
    }
}

/// Answers an expiry with an empty batch at the same anchor.
private final class NoExpiryChangeObserver: ForwardingChangeObserver {
    let anchor: ContactItemSyncAnchor

    init(_ next: any ContactItemChangeObserver, anchor: ContactItemSyncAnchor) {
        self.anchor = anchor
        super.init(next)
    }

    override func didFinishEnumeratingChangesWithError(_ error: any Error) {
        guard (error as? ContactProviderError) == .changeAnchorExpired else {
            return next.didFinishEnumeratingChangesWithError(error)
        }
        next.didFinishEnumeratingChanges(upTo: anchor, moreComing: false)
    }
}
