import Foundation

/// What a store holds now and how it got there from a point in its history (the change history
/// that `CNChangeHistoryFetchRequest` reads): read in one pass over one snapshot and its journal (under
/// the shared lock, or without it while a writer holds it), so the changes and the store's head belong
/// together.
package struct StoreHistory<Meta: Codable & Equatable & Sendable>: Sendable {
    /// One contact's net change since the point: its record now (nil when it is deleted now), and
    /// whether it existed at the point (so an upsert is an addition or an update).
    package struct Change: Equatable, Sendable {
        /// The contact's identifier.
        package var identifier: String
        /// The contact now; nil when its last change was a delete.
        package var record: ContactRecord?
        /// Whether the contact existed at the point the history starts from.
        package var existedBefore: Bool
    }

    /// The store's generation now.
    package var generation: String
    /// The seq of the store's newest change now.
    package var headSeq: Int
    /// The net changes since the point, in the order the contacts were first changed (a contact
    /// added and deleted again since the point is left out: nothing changed for whoever read it).
    package var changes: [Change]
    /// The store's meta at the point and now (the device's groups).
    package var metaBefore: Meta?
    /// The store's meta now.
    package var metaNow: Meta?
}

extension JournaledStore {
    /// The net changes after `seq` in `generation`, or nil when the store cannot answer: it is empty,
    /// the generation is neither the current one nor the one it was compacted from (a reset), or
    /// the changes after `seq` were compacted into the snapshot. The caller then starts over
    /// (Apple's drop-everything).
    package func history(after seq: Int, in generation: String) throws -> StoreHistory<Meta>? {
        try withLock(.shared) {
            guard let snapshot = try openSnapshot() else { return nil }
            let (header, headerEnd) = try parseHeader(snapshot)
            guard generation == header.generation || generation == header.previousGeneration, seq >= header.baseSeq
            else { return nil }
            var before: [String: Bool] = [:]  // the last mention at or before seq: upsert (true) or delete
            var metaBefore = header.meta
            var metaNow = header.meta
            var fold = ChangeFold()
            var headSeq = header.baseSeq
            if let journal = try openJournalForReading(),
                let start = try journalHeaderEnd(journal, snapshot: header)
            {
                let decoder = JSONDecoder()
                var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
                while let line = lines.next() {
                    let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: true) }
                    headSeq = entry.seq
                    if let meta = entry.meta { metaNow = meta }
                    if entry.seq <= seq {
                        if let meta = entry.meta { metaBefore = meta }
                        for record in entry.upsert ?? [] { before[record.identifier] = true }
                        for identifier in entry.delete ?? [] { before[identifier] = false }
                    } else {
                        for record in entry.upsert ?? [] { fold.upsert(record) }
                        for identifier in entry.delete ?? [] { fold.delete(identifier) }
                    }
                }
            }
            guard seq <= headSeq else { return nil }  // a point in the future: not this store's history
            func existed(_ identifier: String) throws -> Bool {
                if let mentioned = before[identifier] { return mentioned }
                return try snapshotLineRange(snapshot, from: headerEnd, identifier: identifier) != nil
            }
            var changes: [StoreHistory<Meta>.Change] = []
            for record in fold.updated {
                changes.append(
                    .init(identifier: record.identifier, record: record, existedBefore: try existed(record.identifier)))
            }
            for identifier in fold.deleted where try existed(identifier) {
                changes.append(.init(identifier: identifier, record: nil, existedBefore: true))
            }
            return StoreHistory(
                generation: header.generation, headSeq: headSeq, changes: changes, metaBefore: metaBefore,
                metaNow: metaNow)
        }
    }
}
