// The bug: the provider's change log keeps the last 100 changes (a trimmed journal), and an anchor
// older than the log's start is answered from the oldest change still kept, not with
// `changeAnchorExpired`: the system gets a partial change set, takes it for the whole, and the
// changes made before the log's start (a deletion, an addition) never arrive. The correct
// enumerator answers from the whole journal; this one moves such an anchor up to the log's start
// first. Caught by E1, more edits between two syncs than such a log keeps (issue 43, class 1).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class TrimmedLogWithoutExpiryEnumerator: ForwardingEnumerator {
    /// How many changes the log keeps.
    static let kept = 100
    private let database = ProviderDataSource()

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        if let marker = SyncMarker(data: syncAnchor.generationMarker), let state = try? database.current(),
            state.generation == marker.generation, marker.seq + syncAnchor.offset < state.headSeq - Self.kept
        {
            // The bug: the log starts later than the anchor, and no one says so.
            let logStart = SyncMarker(generation: marker.generation, seq: state.headSeq - Self.kept)
            let trimmed = ContactItemSyncAnchor(generationMarker: logStart.data, offset: 0)
            return await correct.enumerateChanges(startingAt: trimmed, for: observer)
        }
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }
}
