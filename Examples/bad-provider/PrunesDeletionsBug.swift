// The bug: the provider's change log prunes its deletion records (tombstones) once 100 newer changes
// follow them, to keep the log small, but keeps answering anchors from before them with the updates
// and additions it still has. A system that last synced before a pruned deletion never hears of it:
// the deleted contact stays on the device. The anchor should have expired (changeAnchorExpired, R38)
// once it was older than the oldest deletion record kept. Caught by E1, more edits between two syncs
// than the log keeps deletions for (FarBehindScenario; issue 43, item 8).

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders

final class PrunesDeletionsEnumerator: ForwardingEnumerator {
    /// Deletion records older than this many changes are pruned.
    static let kept = 100
    private let database = ProviderDataSource()

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        let head = (try? database.current())?.headSeq
        await correct.enumerateChanges(startingAt: syncAnchor, for: PrunedDeletionsObserver(observer, head: head))
    }
}

private final class PrunedDeletionsObserver: ForwardingChangeObserver {
    let head: Int?
    private var deleted: [ContactItem.Identifier] = []

    init(_ next: any ContactItemChangeObserver, head: Int?) {
        self.head = head
        super.init(next)
    }

    override func didDelete(_ identifiers: [ContactItem.Identifier]) { deleted += identifiers }

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        // The bug: a batch that ends more than `kept` changes before the head carries no deletions:
        // their records were pruned.
        let end = SyncMarker(data: syncAnchor.generationMarker).map { $0.seq + syncAnchor.offset }
        if let head, let end, end < head - PrunesDeletionsEnumerator.kept {
            deleted = []
        }
        if !deleted.isEmpty { next.didDelete(deleted) }
        next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
    }
}
