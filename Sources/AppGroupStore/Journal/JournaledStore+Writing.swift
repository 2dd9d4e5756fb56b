import Foundation
import Glibc

// Writing: appends under the exclusive lock, reset and replace.
extension JournaledStore {
    /// Exclusive access for read-check-write sequences (e.g. "update only if it exists").
    package func write<T>(_ body: (Writer) throws -> T) throws -> T {
        try withLock(.exclusive) {
            let writer = try Writer(store: self)
            defer { writer.close() }
            return try body(writer)
        }
    }

    /// Appends one entry; returns its seq.
    @discardableResult
    package func append(upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil) throws -> Int {
        try write { try $0.append(upsert: upsert, delete: delete, meta: meta) }
    }

    /// Appends one entry and applies it to `state`, which must be this store's current state.
    ///
    /// - Returns: false (writing nothing) when the store's generation is no longer `state`'s:
    ///   someone reset it meanwhile, and the caller's view is stale.
    ///
    /// `upsertsAreDistinct`: the caller checked that no identifier comes twice in `upsert`.
    package func append(
        upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, to state: inout StoreState<Meta>,
        upsertsAreDistinct: Bool = false
    ) throws -> Bool {
        try append(
            upsert: upsert, delete: delete, meta: meta, to: &state, upsertsAreDistinct: upsertsAreDistinct, group: nil)
    }

    /// `append(upsert:delete:meta:to:)` through a group commit: the entry is written (and readable)
    /// when this returns, and durable before it returns only with `durableNow`; otherwise once
    /// `groupCommit` says so (see ``JournalGroupCommit``).
    ///
    /// - Returns: false (writing nothing) when the store's generation is no longer `state`'s.
    /// - Throws: ``JournalGroupCommit/EarlierEntriesLost`` when an `fdatasync` of entries before this
    ///   one failed and they were taken back (`state` is then stale).
    ///
    /// `upsertsAreDistinct`: the caller checked that no identifier comes twice in `upsert`.
    package func append(
        upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, to state: inout StoreState<Meta>,
        upsertsAreDistinct: Bool = false, groupCommit: JournalGroupCommit, durableNow: Bool
    ) throws -> Bool {
        try append(
            upsert: upsert, delete: delete, meta: meta, to: &state, upsertsAreDistinct: upsertsAreDistinct,
            group: (groupCommit, durableNow))
    }

    /// The one append-and-apply: durable before it returns (`group` nil), or through a group commit.
    private func append(
        upsert: [ContactRecord], delete: [String], meta: Meta?, to state: inout StoreState<Meta>,
        upsertsAreDistinct: Bool, group: (commit: JournalGroupCommit, durableNow: Bool)?
    ) throws -> Bool {
        try withLock(.exclusive) {
            let known = Writer.KnownEnd(
                generation: state.generation, inode: state.journalInode, offset: state.journalOffset,
                headSeq: state.headSeq)
            let writer = try Writer(store: self, known: known)
            defer { writer.close() }
            guard writer.generation == state.generation else { return false }
            // Mapping copies every record (a retain per field): only when an identifier needs it.
            let upsert =
                upsert.allSatisfy { IdentifierRules.isASCII($0.identifier) }
                ? upsert : upsert.map(IdentifierRules.normalized)
            let delete = delete.map(IdentifierRules.normalized)
            if writer.headSeq != state.headSeq {
                try applyJournalUnlocked(to: &state)
            }
            // A membership-only state (the system engine's) with distinct upserts and nothing to
            // delete (a content page) takes the identifiers in first: its count is then the entry's.
            let inserted =
                state.membersOnly && upsertsAreDistinct && delete.isEmpty ? state.insertMembers(upsert) : nil
            let seq: Int
            do {
                // The live count rides in the entry's line, so `status` reads one line, not the journal.
                seq = try writer.append(
                    upsert: upsert, delete: delete, meta: meta, durable: group == nil, normalized: true,
                    liveCount: inserted != nil
                        ? state.count
                        : state.count(afterUpserting: upsert, deleting: delete, distinct: upsertsAreDistinct),
                    beforeWriting: group.map { group in { try group.commit.prepare(toWrite: $0, with: writer) } })
                try group?.commit.didWrite(with: writer, durableNow: group!.durableNow)
            } catch {
                if let inserted { state.removeMembers(inserted) }
                throw error
            }
            if state.membersOnly {
                state.apply(seq: seq, upserted: inserted != nil ? [] : upsert, deleted: delete, meta: meta)
            } else {
                let kept = retainsContacts ? upsert : upsert.map { ContactRecord(identifier: $0.identifier) }
                state.apply(
                    JournalEntry(
                        seq: seq, upsert: kept.isEmpty ? nil : kept, delete: delete.isEmpty ? nil : delete, meta: meta))
            }
            state.journalOffset = writer.endOffset
            state.journalInode = writer.inode
            return true
        }
    }

    /// Empties the store and starts a new generation that forgets all history.
    @discardableResult
    package func reset(meta: Meta? = nil) throws -> String {
        try withLock(.exclusive) {
            let replaced = try readSnapshotHeader()
            if let replaced { try rollJournalForward(to: replaced) }
            let head = try currentHeadUnlocked()
            let generation = UUID().uuidString
            try writeSnapshot(
                generation: generation, previousGeneration: nil, replacedGeneration: replaced?.generation,
                baseSeq: head, records: [], meta: meta)
            try writeEmptyJournal(generation: generation, baseSeq: head)
            return generation
        }
    }

    /// Replaces the whole store with `records` in one atomic snapshot (a new generation that
    /// forgets history): the fast path for loading a large address book at once.
    @discardableResult
    package func replaceAll(with records: [ContactRecord], meta: Meta? = nil) throws -> String {
        try withLock(.exclusive) {
            let replaced = try readSnapshotHeader()
            if let replaced { try rollJournalForward(to: replaced) }
            let head = try currentHeadUnlocked()
            let generation = UUID().uuidString
            var unique: [String: ContactRecord] = [:]
            for record in records.lazy.map(IdentifierRules.normalized) { unique[record.identifier] = record }
            let sorted = unique.values.sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
            try writeSnapshot(
                generation: generation, previousGeneration: nil, replacedGeneration: replaced?.generation,
                baseSeq: head, records: sorted, meta: meta)
            try writeEmptyJournal(generation: generation, baseSeq: head)
            return generation
        }
    }

}
