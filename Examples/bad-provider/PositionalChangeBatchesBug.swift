// The bug: the provider works out every change since the session's first anchor again at each
// batch (updates first, sorted by identifier, then deletions) and hands them over
// `suggestedBatchSize` at a time, remembering only how many it has handed over. When the app
// deletes a contact whose update an earlier batch of the session already carried, that update
// leaves the front of the list, everything after it moves up one place, and the change at the
// boundary is never handed over. Caught by D11 (issue 30, item 12).

import ContactProvider
import Foundation
import KnownBadProviders

final class PositionalChangeBatchesEnumerator: ForwardingEnumerator {
    override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        let (start, position) = Self.decode(syncAnchor)
        let all = AllChangesObserver()
        await correct.enumerateChanges(startingAt: start, for: all)
        guard let end = all.end else {
            return observer.didFinishEnumeratingChangesWithError(all.error ?? ContactProviderError.changeAnchorExpired)
        }
        let updates = all.updated.sorted { Self.identifier($0) < Self.identifier($1) }
        let deletions = all.deleted.sorted { $0.value < $1.value }
        let count = updates.count + deletions.count
        let size = max(observer.suggestedBatchSize, 1)
        let range = min(position, count)..<min(position + size, count)
        let batchUpdates = updates.indices.clamped(to: range).map { updates[$0] }
        let batchDeletions = (updates.count..<count).clamped(to: range).map { deletions[$0 - updates.count] }
        if !batchUpdates.isEmpty { observer.didUpdate(batchUpdates) }
        if !batchDeletions.isEmpty { observer.didDelete(batchDeletions) }
        if range.upperBound >= count {
            observer.didFinishEnumeratingChanges(upTo: end, moreComing: false)
        } else {
            observer.didFinishEnumeratingChanges(upTo: Self.encode(start, position: range.upperBound), moreComing: true)
        }
    }

    static func identifier(_ item: ContactItem) -> String {
        guard case .contact(_, let identifier) = item else { return "" }
        return identifier.value
    }

    /// The session's first anchor and the number of changes handed over, in one anchor.
    static func encode(_ start: ContactItemSyncAnchor, position: Int) -> ContactItemSyncAnchor {
        let text = "P1:\(start.offset):" + start.generationMarker.base64EncodedString()
        return ContactItemSyncAnchor(generationMarker: Data(text.utf8), offset: position)
    }

    static func decode(_ anchor: ContactItemSyncAnchor) -> (ContactItemSyncAnchor, Int) {
        let text = String(decoding: anchor.generationMarker, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, parts[0] == "P1", let offset = Int(parts[1]), let marker = Data(base64Encoded: parts[2])
        else { return (anchor, 0) }
        return (ContactItemSyncAnchor(generationMarker: marker, offset: offset), anchor.offset)
    }
}

/// Collects every change since an anchor in one batch.
private final class AllChangesObserver: ContactItemChangeObserver {
    var updated: [ContactItem] = []
    var deleted: [ContactItem.Identifier] = []
    var end: ContactItemSyncAnchor?
    var error: (any Error)?

    func didUpdate(_ items: [ContactItem]) { updated += items }
    func didDelete(_ identifiers: [ContactItem.Identifier]) { deleted += identifiers }
    func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) { end = syncAnchor }
    func didFinishEnumeratingChangesWithError(_ error: any Error) { self.error = error }
    var suggestedBatchSize: Int { 1_000_000 }
}
