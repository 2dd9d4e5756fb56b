// The bug: to stop deleted contacts from coming back, the provider remembers every identifier it
// reported deleted and drops later updates for it. An identifier the app re-uses after a deletion
// (a re-imported contact, a server that recycles ids) never arrives again. Caught by D8.

import AppGroupStore
import ContactProvider
import Foundation
import Synchronization

final class ReusedIdentifierEnumerator: ContactItemEnumerator {
    private let correct: any ContactItemEnumerator
    fileprivate let tombstones = Mutex(Set<String>())

    init(wrapping correct: any ContactItemEnumerator) { self.correct = correct }

    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: observer)
    }

    func enumerateChanges(startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: TombstoneObserver(observer, owner: self))
    }

    func invalidate() async { await correct.invalidate() }
}

private final class TombstoneObserver: ForwardingChangeObserver {
    let owner: ReusedIdentifierEnumerator

    init(_ next: any ContactItemChangeObserver, owner: ReusedIdentifierEnumerator) {
        self.owner = owner
        super.init(next)
    }

    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        owner.tombstones.withLock { $0.formUnion(identifiers.map(\.value)) }
        next.didDelete(identifiers)
    }

    override func didUpdate(_ items: [ContactItem]) {
        let dead = owner.tombstones.withLock { $0 }
        let alive = items.filter { !dead.contains(ContactRecord($0).identifier) }
        if !alive.isEmpty { next.didUpdate(alive) }
    }
}
