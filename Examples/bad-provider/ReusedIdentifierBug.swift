// The bug: to stop deleted contacts from coming back, the provider remembers every identifier it
// reported deleted and drops later updates for it. An identifier the app re-uses after a deletion
// (a re-imported contact, a server that recycles ids) never arrives again. Caught by D8.

import AppGroupStore
import ContactProvider
import Foundation
import KnownBadProviders
import Synchronization

final class ReusedIdentifierEnumerator: ForwardingEnumerator {
    // Shared by every call's observer.
    private let tombstones = Tombstones()

    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: TombstoneObserver(observer, tombstones: tombstones))
    }
}

/// The identifiers this provider has reported deleted, across calls.
private final class Tombstones: Sendable {
    let identifiers = Mutex(Set<String>())
}

private final class TombstoneObserver: ForwardingChangeObserver {
    let tombstones: Tombstones

    init(_ next: any ContactItemChangeObserver, tombstones: Tombstones) {
        self.tombstones = tombstones
        super.init(next)
    }

    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        tombstones.identifiers.withLock { $0.formUnion(identifiers.map(\.value)) }
        next.didDelete(identifiers)
    }

    override func didUpdate(_ items: [ContactItem]) {
        let dead = tombstones.identifiers.withLock { $0 }
        let alive = items.filter { !dead.contains(ContactRecord($0).identifier) }
        if !alive.isEmpty { next.didUpdate(alive) }
    }
}
