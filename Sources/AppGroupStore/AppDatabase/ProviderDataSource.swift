import Foundation

/// What a provider needs from the app database: stable pages and changes since an anchor.
///
/// It keeps the database in memory and refreshes by reading only new journal lines, so a
/// long-lived provider process pays O(changes) per signal, not O(address book).
public final class ProviderDataSource {
    private let store: JournaledStore<NoMetadata>
    private var state: StoreState<NoMetadata> = .empty
    private var loaded = false
    /// Content pages come from the files directly: O(page), not O(address book).
    private let pager: ContentPager<NoMetadata>

    /// A data source over `appGroup`'s database.
    public init(appGroup: AppGroup = .current) {
        // Lazy: the snapshot's contacts stay in the mapped file until a page needs them.
        store = JournaledStore(directory: appGroup.contactsDirectory, lazySnapshot: true, retainsPreviousJournal: true)
        pager = ContentPager(store: store)
    }

    /// The database as of now.
    package func current() throws -> StoreState<NoMetadata> {
        if loaded {
            try store.refresh(&state)
        } else {
            state = try store.load()
            loaded = true
        }
        return state
    }

    /// One content page.
    public enum Page {
        /// Contacts of the page, the marker to carry, the next offset, and whether it is the last page.
        case page([ContactRecord], marker: SyncMarker, nextOffset: Int, isLast: Bool)
        /// The page's generation is gone (reset or compaction): restart with `pageExpired`.
        case expired
    }

    /// The page at `offset` of the content enumeration identified by `marker` (nil: the initial page).
    ///
    /// Each page reads only its own lines (and the journal lines added since the last page), so the
    /// first page of a million-contact database costs what any page costs.
    public func contentPage(marker: Data?, offset: Int, limit: Int) throws -> Page {
        let page = try pager.page(from: offset, limit: max(limit, 1))
        let chosen: SyncMarker
        if let marker {
            guard let decoded = SyncMarker(data: marker), decoded.generation == page.generation else { return .expired }
            chosen = decoded
        } else {
            chosen = SyncMarker(generation: page.generation, seq: page.headSeq)
        }
        return .page(page.contacts, marker: chosen, nextOffset: page.nextOffset, isLast: page.isLast)
    }

    /// One batch of changes.
    public enum Changes {
        /// Contacts to upsert, identifiers to delete (disjoint), the next anchor and whether more is pending.
        case batch(updated: [ContactRecord], deleted: [String], marker: SyncMarker, offset: Int, moreComing: Bool)
        /// The anchor's generation or position is gone: answer `changeAnchorExpired`.
        case expired(reason: String)
    }

    /// The changes after anchor `(marker, offset)`, at most `limit` of them.
    public func changes(marker: Data, offset: Int, limit: Int) throws -> Changes {
        guard let decoded = SyncMarker(data: marker), offset >= 0 else {
            return .expired(reason: "the anchor was not produced by this provider")
        }
        let position = decoded.seq + offset
        if decoded.generation.isEmpty {
            // Synced while the database did not exist yet: still nothing to report if it still does not.
            if try store.readSnapshotHeader() == nil {
                return .batch(updated: [], deleted: [], marker: decoded, offset: offset, moreComing: false)
            }
            return .expired(reason: "the database was created after the anchor")
        }
        switch try store.changes(after: position, in: decoded.generation, limit: max(limit, 1)) {
        case .expired(let reason):
            return .expired(reason: reason)
        case .changes(let entries, let headSeq, let generation):
            // Collapse to the final state of each contact, so updates and deletions are disjoint and
            // the order of didUpdate / didDelete cannot matter.
            var fold = ChangeFold()
            // At most `limit` changes: an entry with more (one atomic `delete` of many ids) is split
            // across batches, the marker saying how many of its changes were delivered (`within`).
            var budget = max(limit, 1)
            var last = position
            var within = 0
            for entry in entries {
                let changes =
                    (entry.upsert ?? []).map { ($0.identifier, Optional($0)) } + (entry.delete ?? []).map { ($0, nil) }
                let start = entry.seq == position + 1 ? min(decoded.within, changes.count) : 0
                let end = start + min(changes.count - start, budget)
                for (identifier, record) in changes[start..<end] {
                    if let record { fold.upsert(record) } else { fold.delete(identifier) }
                }
                budget -= end - start
                if end < changes.count {
                    within = end
                    break
                }
                last = entry.seq
                if budget == 0 { break }
            }
            let next: SyncMarker
            let nextOffset: Int
            if generation == decoded.generation {
                next = SyncMarker(generation: decoded.generation, seq: decoded.seq, within: within)
                nextOffset = last - decoded.seq
            } else {
                next = SyncMarker(generation: generation, seq: last, within: within)
                nextOffset = 0
            }
            return .batch(
                updated: fold.updated, deleted: fold.deleted, marker: next, offset: nextOffset,
                moreComing: within > 0 || last < headSeq)
        }
    }
}
