import Foundation

/// The contents of a journaled store at one sequence number, held in memory.
///
/// `order` gives every identifier a stable position within one generation: snapshot order
/// first, then identifiers in the order the journal first mentions them. Deleted contacts stay
/// in `order` as holes, so a content page at `(generation, offset)` means the same thing for
/// the whole life of the generation — that is what makes paging deterministic and resumable.
package struct StoreState<Meta: Codable & Equatable & Sendable>: Sendable {
    package internal(set) var generation: String
    package internal(set) var previousGeneration: String?
    package internal(set) var baseSeq: Int
    package internal(set) var headSeq: Int
    package internal(set) var records: [String: ContactRecord]
    package internal(set) var order: [String]
    package internal(set) var meta: Meta?
    var positions: [String: Int]
    package internal(set) var journalInode: UInt64 = 0
    package internal(set) var journalOffset: Int = 0
    /// Lazy residency: contacts still as the snapshot has them, as byte ranges of `snapshotFile`
    /// (decoded only when a page asks for them); `records` then holds journal values only.
    var snapshotLines: [String: Range<Int>] = [:]
    var snapshotFile: MappedFile?
    /// Identifiers-only residency: every live contact is an empty range in `snapshotLines`.
    var identifiersOnly = false
    /// Membership-only residency (the system engine's): the live identifiers in one set, and no
    /// positions (`order` stays empty, so the state cannot page). It is what the engine asks a
    /// state (does it exist? how many?) at a third of the memory of a million-contact `order`,
    /// `positions` and `snapshotLines`.
    var membersOnly = false
    var members = IdentifierSet()

    /// Moves a state onto the files a compaction left (``JournaledStore/CompactionOutcome``), when it
    /// had read exactly the journal that was folded: the contacts are the same, only the generation,
    /// the base seq and the journal changed. Only a membership-only state (the engine's) is moved: the
    /// others hold byte positions in the old snapshot. Any other state is left as it is, and the next
    /// refresh loads the store again, as it would have.
    package mutating func rebase(after outcome: JournaledStore<Meta>.CompactionOutcome) {
        guard membersOnly, generation == outcome.foldedGeneration, journalInode == outcome.foldedJournalInode,
            journalOffset == outcome.foldedJournalEnd, headSeq == outcome.baseSeq
        else { return }
        previousGeneration = generation
        generation = outcome.generation
        baseSeq = outcome.baseSeq
        journalInode = outcome.journalInode
        journalOffset = outcome.journalSize
    }

    /// An empty, not yet initialised store.
    package static var empty: StoreState {
        StoreState(
            generation: "", previousGeneration: nil, baseSeq: 0, headSeq: 0, records: [:], order: [],
            meta: nil, positions: [:])
    }

    /// Live contacts in position order.
    package var contacts: [ContactRecord] {
        let decoder = JSONDecoder()
        return order.compactMap { record(for: $0, decoder: decoder) }
    }

    /// Number of live contacts.
    package var count: Int { records.count + snapshotLines.count + members.count }

    /// How many contacts are live once an entry with these upserts and deletes is applied (upserts
    /// first, then deletes, as `apply` does): one hash lookup per identifier, and a set only for the
    /// identifiers the state does not hold yet (one entry may name a contact twice), unless the
    /// caller knows the upserts are `distinct` and there is nothing to delete (a content page the
    /// engine checked: a full sync of a million contacts builds no second set of them).
    func count(afterUpserting upsert: [ContactRecord], deleting delete: [String], distinct: Bool = false) -> Int {
        if distinct, delete.isEmpty {
            var result = count
            var index = 0
            while index < upsert.count {
                if !contains(upsert[index].identifier) { result += 1 }
                index += 1
            }
            return result
        }
        var added: Set<String> = []
        for record in upsert where !contains(record.identifier) { added.insert(record.identifier) }
        var result = count + added.count
        guard !delete.isEmpty else { return result }
        var removed: Set<String> = []
        for identifier in delete where contains(identifier) || added.contains(identifier) {
            if removed.insert(identifier).inserted { result -= 1 }
        }
        return result
    }

    /// Whether a live contact has this identifier.
    package func contains(_ identifier: String) -> Bool {
        records[identifier] != nil || snapshotLines[identifier] != nil || members.contains(identifier)
    }

    /// The live contact with this identifier (decoded from the snapshot if it is still there).
    package func record(for identifier: String, decoder: JSONDecoder = JSONDecoder()) -> ContactRecord? {
        if let record = records[identifier] { return record }
        guard let range = snapshotLines[identifier], let file = snapshotFile else { return nil }
        // The line was decoded once already when the store was loaded, so it is known to be valid.
        return try? ContactRecordCodec.decode(file.bytes, range: range)
    }

    /// Puts the identifiers of `upsert` (distinct, the caller checked) into a membership-only
    /// state's set ahead of the entry that commits them, and returns those it did not hold yet: the
    /// state's `count` is then the entry's live count. One hash per contact for both, where counting
    /// first and applying after hashed each identifier twice (`perf`, issue 44). If the entry is not
    /// written, ``removeMembers(_:)`` takes the returned identifiers out again.
    mutating func insertMembers(_ upsert: [ContactRecord]) -> [String] {
        let identifiers = upsert.map(\.identifier)
        var inserted: [String] = []
        members.insert(identifiers) { inserted.append(identifiers[$0]) }
        return inserted
    }

    /// Takes back what ``insertMembers(_:)`` put in, for an entry that was not written.
    mutating func removeMembers(_ identifiers: [String]) {
        for identifier in identifiers { members.remove(identifier) }
    }

    /// Applies a committed entry to a membership-only state without building the entry.
    mutating func apply(seq: Int, upserted: [ContactRecord], deleted: [String], meta: Meta?) {
        for record in upserted { members.insert(record.identifier) }
        for identifier in deleted { members.remove(identifier) }
        if let meta { self.meta = meta }
        headSeq = seq
    }

    mutating func apply(_ entry: JournalEntry<Meta>) {
        if membersOnly {
            for record in entry.upsert ?? [] { members.insert(record.identifier) }
            for identifier in entry.delete ?? [] { members.remove(identifier) }
            if let meta = entry.meta { self.meta = meta }
            headSeq = entry.seq
            return
        }
        for record in entry.upsert ?? [] {
            if positions[record.identifier] == nil {
                positions[record.identifier] = order.count
                order.append(record.identifier)
            }
            if identifiersOnly {
                snapshotLines[record.identifier] = 0..<0
            } else {
                records[record.identifier] = record
                snapshotLines[record.identifier] = nil
            }
        }
        for identifier in entry.delete ?? [] {
            records[identifier] = nil
            snapshotLines[identifier] = nil
        }
        if let meta = entry.meta { self.meta = meta }
        headSeq = entry.seq
    }

    /// Up to `limit` live contacts starting at position `offset`.
    ///
    /// - Returns: the contacts, the position after the last one consumed, and whether the end was reached.
    package func page(from offset: Int, limit: Int) -> (contacts: [ContactRecord], nextOffset: Int, isLast: Bool) {
        // Contacts still in the snapshot are decoded from their mapped bytes by the store's codec.
        var slots: [ContactRecord?] = []
        var index = max(offset, 0)
        while index < order.count, slots.count < limit {
            let identifier = order[index]
            if let record = records[identifier] {
                slots.append(record)
            } else if let range = snapshotLines[identifier], let file = snapshotFile {
                slots.append(try? ContactRecordCodec.decode(file.bytes, range: range))
            }
            index += 1
        }
        let result = slots.compactMap { $0 }
        // Skip trailing holes so "last" is reported on the page that holds the last contact.
        var probe = index
        while probe < order.count, !contains(order[probe]) { probe += 1 }
        return (result, index, probe >= order.count)
    }
}

/// The answer to "what changed since seq S in generation G?".
package enum ChangeWindow<Meta: Codable & Equatable & Sendable>: Sendable {
    /// The entries after S (at most the requested number), and the newest seq in the store.
    case changes([JournalEntry<Meta>], headSeq: Int, generation: String)
    /// G or S has been forgotten (reset or compaction); the only right answer is a full re-enumeration.
    case expired(reason: String)
}
