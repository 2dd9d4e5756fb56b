// The bug: on its first change enumeration after launch the provider "catches up" by sending the
// whole backlog in one batch, ignoring suggestedBatchSize; later batches are fine. The kit's batch
// probes never see it, but the system warns (R31) during the syncs after a restart. Caught by W1.

import ContactProvider
import Foundation
import KnownBadProviders
import Synchronization

final class OversizedAfterLaunchEnumerator: ForwardingEnumerator {
    private let firstChangeCall = Mutex(true)

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        let first = firstChangeCall.withLock { first in
            defer { first = false }
            return first
        }
        guard first else { return await correct.enumerateChanges(startingAt: syncAnchor, for: observer) }
        // Every batch of the backlog, passed on as one.
        var anchor = syncAnchor
        for _ in 0..<1000 {
            let collector = CollectingObserver(observer)
            await correct.enumerateChanges(startingAt: anchor, for: collector)
            switch collector.end {
            case .finished(let next, let moreComing) where moreComing && next != anchor:
                anchor = next
            case .finished(let next, _):
                return observer.didFinishEnumeratingChanges(upTo: next, moreComing: false)
            case .failed(let error):
                return observer.didFinishEnumeratingChangesWithError(error)
            case nil:
                return
            }
        }
    }
}

// The loop above hands the collector to the enumerator and reads it back after the call returns.
private final class CollectingObserver: ForwardingChangeObserver {
    enum End {
        case finished(ContactItemSyncAnchor, Bool)
        case failed(any Error)
    }

    var end: End?

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        end = .finished(syncAnchor, moreComing)
    }

    override func didFinishEnumeratingChangesWithError(_ error: any Error) { end = .failed(error) }
}
