// Not a bug: a legal design, the correct twin of trimmed-log-without-expiry (issue 43, class 1, and
// its "expiring old anchors" design). The provider's change log keeps the last 100 changes, and an
// anchor older than the log's start is answered with `changeAnchorExpired`, as the rules require of an
// anchor the provider can no longer answer in full (R38): the system then enumerates content again and
// loses nothing. Every rule must pass, E1's far-behind scenario included.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class TrimmedLogWithExpiryEnumerator: ForwardingEnumerator {
    private let database = ProviderDataSource()

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        if let marker = SyncMarker(data: syncAnchor.generationMarker), let state = try? database.current(),
            state.generation == marker.generation,
            marker.seq + syncAnchor.offset < state.headSeq - TrimmedLogWithoutExpiryEnumerator.kept
        {
            return observer.didFinishEnumeratingChangesWithError(ContactProviderError.changeAnchorExpired)
        }
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }
}
