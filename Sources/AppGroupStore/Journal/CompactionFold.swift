import Foundation

/// Where a contact's line comes from when compaction writes the new snapshot.
///
/// Not nested in the generic `JournaledStore`: a nested type is generic over `Meta` too, so the
/// system store's compaction (`Meta` from another module, not specialized) ran every operation on
/// it through run-time generic metadata and value witnesses (`perf`, issue 44).
enum CompactedLine: Equatable {
    case snapshot(Range<Int>)
    /// `keys`: where the contact's index keys start in the compaction's derived keys (its
    /// `derivedIndexes`' keys, each followed by a newline), or -1 when it has none; below -1, where
    /// they start in the keys of the lines the write noted (``notedKeys(at:)``).
    case journal(Range<Int>, keys: Int = -1)
    case encoded(Data)

    /// `keys` of a contact whose keys start at `offset` in the noted lines' keys
    /// (`WrittenContactLines`), and back: the one is the other's inverse.
    static func notedKeys(at offset: Int) -> Int { -2 - offset }

    /// Where a journal contact's derived keys start, or -1.
    var derivedKeys: Int {
        if case .journal(_, let keys) = self { return keys }
        return -1
    }

    /// Where an unchanged contact's line starts in the old snapshot (its keys are carried from there).
    var snapshotOffset: Int? {
        if case .snapshot(let range) = self { return range.lowerBound }
        return nil
    }
}

/// What a compaction folds — the old snapshot's lines, then the journal's upserts and deletions —
/// into the new snapshot's lines, in identifier order, each identifier once with its last line.
///
/// While the snapshot is in order and the journal only upserts identifiers in increasing order
/// (what a full sync's pages write), both are kept as lists and merged at the end, an identifier in
/// both taking the journal's line: no identifier is hashed. After a full sync of a million contacts
/// a dictionary of every identifier, filled and then read once each, was a tenth of the provider's
/// time (`perf`, issue 44). Anything else — a deletion, an identifier out of order or repeated —
/// moves the fold to that dictionary (built from what was read so far, as if it had been used
/// from the start), and the end merges the snapshot's order with the journal's new identifiers, or
/// sorts when the snapshot was out of order, as compaction always did.
struct CompactionFold {
    private var snapshotOrder: [String] = []
    private var snapshotLines: [CompactedLine] = []
    private var snapshotOrdered = true
    private var journalOrder: [String] = []
    private var journalLines: [CompactedLine] = []
    private var usesDictionary = false
    private var lines: [String: CompactedLine] = [:]
    /// The identifiers the journal added (not in the dictionary when upserted), in its order.
    private var added: [String] = []
    private var deletedAny = false
    private let expectedCount: Int

    /// A fold for a snapshot of `snapshotCount` lines, ending near `expectedCount` contacts.
    init(snapshotCount: Int, expectedCount: Int) {
        self.expectedCount = expectedCount
        snapshotOrder.reserveCapacity(snapshotCount)
        snapshotLines.reserveCapacity(snapshotCount)
        journalOrder.reserveCapacity(max(expectedCount - snapshotCount, 0))
        journalLines.reserveCapacity(max(expectedCount - snapshotCount, 0))
    }

    /// The old snapshot's next line (all of them come before the journal's changes).
    mutating func snapshotLine(_ identifier: String, _ range: Range<Int>) {
        if snapshotOrdered, let last = snapshotOrder.last, !IdentifierOrder.precedes(last, identifier) {
            snapshotOrdered = false
        }
        snapshotOrder.append(identifier)
        snapshotLines.append(.snapshot(range))
    }

    /// The journal's next upsert of `identifier`.
    mutating func upsert(_ identifier: String, _ line: CompactedLine) {
        // Not `last.map { … } ?? true`: a debug build runs `Optional.map` generically with a closure
        // and `??` with another, for every contact a compaction reads from the journal.
        let inOrder = journalOrder.isEmpty || IdentifierOrder.precedes(journalOrder[journalOrder.count - 1], identifier)
        if !usesDictionary, snapshotOrdered, inOrder {
            journalOrder.append(identifier)
            journalLines.append(line)
            return
        }
        useDictionary()
        if lines.updateValue(line, forKey: identifier) == nil { added.append(identifier) }
    }

    /// The journal's next deletion of `identifier`.
    mutating func delete(_ identifier: String) {
        useDictionary()
        lines[identifier] = nil
        deletedAny = true
    }

    /// Moves to the dictionary: what was read so far goes in as if it had been used from the start.
    private mutating func useDictionary() {
        guard !usesDictionary else { return }
        usesDictionary = true
        lines.reserveCapacity(expectedCount)
        for index in snapshotOrder.indices { lines[snapshotOrder[index]] = snapshotLines[index] }
        for index in journalOrder.indices {
            if lines.updateValue(journalLines[index], forKey: journalOrder[index]) == nil {
                added.append(journalOrder[index])
            }
        }
        snapshotLines = []
        journalOrder = []
        journalLines = []
    }

    /// The new snapshot's lines, in identifier order. The fold is spent.
    mutating func finish() -> [CompactedLine] {
        defer { self = CompactionFold(snapshotCount: 0, expectedCount: 0) }
        if !usesDictionary, snapshotOrdered {
            var merged: [CompactedLine] = []
            merged.reserveCapacity(snapshotOrder.count + journalOrder.count)
            var left = 0
            var right = 0
            while left < snapshotOrder.count, right < journalOrder.count {
                let order = IdentifierOrder.compare(snapshotOrder[left], journalOrder[right])
                if order < 0 {
                    merged.append(snapshotLines[left])
                    left += 1
                } else {
                    merged.append(journalLines[right])
                    right += 1
                    if order == 0 { left += 1 }
                }
            }
            merged.append(contentsOf: snapshotLines[left...])
            merged.append(contentsOf: journalLines[right...])
            return merged
        }
        useDictionary()
        // Without a deletion every identifier read is kept, and `added` holds none of the snapshot's.
        let identifiers =
            snapshotOrdered
            ? IdentifierOrder.merge(
                ordered: snapshotOrder, added: added,
                isKept: deletedAny ? { [lines] in lines[$0] != nil } : { _ in true })
            : lines.keys.sorted(by: IdentifierOrder.precedes)
        return identifiers.map { lines[$0]! }
    }
}
