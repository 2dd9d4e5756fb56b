import Foundation
import Glibc

// Queries that read only what they need: a lookup by identifier, the changes after a seq.
extension JournaledStore {
    /// The contact with `identifier`, without loading the store: O(log N + journal matches).
    package func lookup(_ identifier: String) throws -> ContactRecord? {
        try withLock(.shared) { try lookupUnlocked(identifier) }
    }

    func lookupUnlocked(_ identifier: String) throws -> ContactRecord? {
        // Stored identifiers are NFC (see IdentifierRules): search for the same bytes.
        let identifier = IdentifierRules.normalized(identifier)
        guard let snapshot = try openSnapshot() else { return nil }
        let (header, headerEnd) = try parseHeader(snapshot)
        var found = try binarySearchSnapshot(snapshot, from: headerEnd, for: identifier)
        if let journal = try openJournalForReading(),
            let start = try journalHeaderEnd(journal, snapshot: header)
        {
            // Encoded exactly as the journal lines are (no escaped slashes), or "a/b" would never match.
            let needle = Array(try LineCoding.encoder().encode(identifier))
            let decoder = JSONDecoder()
            var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
            while let line = lines.next() {
                guard contains(journal.bytes, range: line, needle: needle) else { continue }
                let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: true) }
                if let record = entry.upsert?.last(where: { $0.identifier == identifier }) { found = record }
                if entry.delete?.contains(identifier) == true { found = nil }
            }
        }
        return found
    }

    private func contains(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, needle: [UInt8]) -> Bool {
        guard range.count >= needle.count, let base = bytes.baseAddress else { return false }
        return ByteSearch.contains(base + range.lowerBound, count: range.count, needle: needle)
    }

    /// The record `identifier` in the sorted snapshot, or nil: O(log N).
    func binarySearchSnapshot(_ snapshot: MappedFile, from headerEnd: Int, for identifier: String) throws
        -> ContactRecord?
    {
        guard let line = try snapshotLineRange(snapshot, from: headerEnd, identifier: identifier) else { return nil }
        var lines = LineCursor(snapshot, path: snapshotPath, from: line.lowerBound, lineNumber: nil)
        _ = lines.next()
        return try lines.decoding { try decodeRecord(JSONDecoder(), snapshot, line, retain: true) }
    }

    /// The byte offset of `identifier`'s line in the sorted snapshot, or nil: O(log N).
    func snapshotLine(_ snapshot: MappedFile, from headerEnd: Int, identifier: String) throws -> Int? {
        try snapshotLineRange(snapshot, from: headerEnd, identifier: identifier)?.lowerBound
    }

    /// The bytes of `identifier`'s line (without its newline) in the sorted snapshot, or nil:
    /// O(log N), each probe decoding only a line's identifier.
    func snapshotLineRange(_ snapshot: MappedFile, from headerEnd: Int, identifier: String) throws -> Range<Int>? {
        let decoder = JSONDecoder()
        var low = headerEnd
        var high = snapshot.size
        while low < high {
            let middle = low + (high - low) / 2
            let start = snapshot.lineStart(containing: middle, floor: low)
            var lines = LineCursor(snapshot, path: snapshotPath, from: start, lineNumber: nil)
            guard let line = lines.next() else { throw lines.malformed("truncated line (no newline)") }
            let found = try lines.decoding { try decodeRecord(decoder, snapshot, line, retain: false).identifier }
            if found == identifier { return line }
            if IdentifierOrder.precedes(found, identifier) {
                low = line.upperBound + 1
            } else {
                high = start
            }
        }
        return nil
    }

    /// The changes after `seq` in `generation`, at most `limit` entries: O(log J + limit).
    ///
    /// A generation that is neither the current one nor the one it was compacted from, or a seq
    /// that was folded away or lies in the future, is answered `.expired` — never with a partial list.
    package func changes(after seq: Int, in generation: String, limit: Int) throws -> ChangeWindow<Meta> {
        try withLock(.shared) {
            guard let header = try readSnapshotHeader() else {
                return .expired(reason: "the store is empty and has no generation")
            }
            guard generation == header.generation || generation == header.previousGeneration else {
                return .expired(reason: "generation \(generation) is no longer known")
            }
            var folded: [JournalEntry<Meta>] = []
            if seq < header.baseSeq {
                // Behind the last compaction: answered from the journal it folded, when it was kept.
                guard let entries = foldedEntries(after: seq, before: header, limit: limit) else {
                    return .expired(
                        reason: "changes after \(seq) were compacted into the snapshot at \(header.baseSeq)")
                }
                folded = entries
                if folded.count == limit || folded.last?.seq != header.baseSeq {
                    let headSeq = try currentHeadUnlocked()
                    return .changes(folded, headSeq: headSeq, generation: header.generation)
                }
            }
            let seq = max(seq, header.baseSeq)
            // Asked again for the changes after the head of an unchanged journal (an idle signal):
            // the answer is known without mapping the journal.
            var info = stat()
            let known =
                stat(journalPath, &info) == 0
                ? JournalEnd(generation: header.generation, info: info) : nil
            if let known, let cached = lastJournalEnd, cached.end == known, seq == cached.headSeq {
                return .changes(folded, headSeq: seq, generation: header.generation)
            }
            guard let journal = try openJournalForReading(),
                let start = try journalHeaderEnd(journal, snapshot: header)
            else {
                if seq == header.baseSeq { return .changes(folded, headSeq: seq, generation: header.generation) }
                return .expired(reason: "seq \(seq) is beyond the newest change \(header.baseSeq)")
            }
            // Entries are contiguous: the entry with seq s is line (s - baseSeq + 1).
            let wanted = seq + 1
            var offset = try findEntry(journal, from: start, seq: wanted, baseSeq: header.baseSeq)
            var entries = folded
            let decoder = JSONDecoder()
            while let at = offset, at < journal.size, let end = journal.newline(from: at) {
                let entry: JournalEntry<Meta>
                do {
                    entry = try decodeEntry(decoder, journal, at..<end, retain: true)
                } catch {
                    throw StoreError.malformed(
                        path: journalPath, line: journal.countLines(upTo: at) + 1, reason: LineCoding.reason(error))
                }
                if entries.count < limit {
                    entries.append(entry)
                    offset = end + 1
                } else {
                    break
                }
            }
            let headSeq = try self.headSeq(journal, start: start, baseSeq: header.baseSeq)
            if seq > headSeq {
                return .expired(reason: "seq \(seq) is beyond the newest change \(headSeq)")
            }
            if let known, known.inode == journal.inode, known.size == journal.size {
                lastJournalEnd = (known, headSeq)
            }
            return .changes(entries, headSeq: headSeq, generation: header.generation)
        }
    }

    /// Byte offset of the entry with `seq` (binary search on the line prefixes), or nil if past the end.
    func findEntry(_ journal: MappedFile, from start: Int, seq: Int, baseSeq: Int) throws -> Int? {
        var low = start
        var high = journal.size
        var best: Int?
        while low < high {
            let middle = low + (high - low) / 2
            let lineStart = journal.lineStart(containing: middle, floor: low)
            guard let end = journal.newline(from: lineStart) else {
                high = lineStart  // torn tail
                continue
            }
            let lineSeq = try seqOf(journal, lineStart..<end)
            if lineSeq == seq { return lineStart }
            if lineSeq < seq {
                low = end + 1
            } else {
                best = lineStart
                high = lineStart
            }
        }
        return best
    }

    func seqOf(_ journal: MappedFile, _ range: Range<Int>) throws -> Int {
        let data = journal.data(range)
        do {
            return try LineCoding.seq(of: data[...])
        } catch {
            throw StoreError.malformed(
                path: journalPath, line: journal.countLines(upTo: range.lowerBound) + 1,
                reason: LineCoding.reason(error))
        }
    }

    /// The seq of the last complete journal line (or the base when there is none).
    func headSeq(_ journal: MappedFile, start: Int, baseSeq: Int) throws -> Int {
        var end = journal.size
        // Drop a torn tail.
        while end > start, journal.bytes[end - 1] != 0x0A {
            end -= 1
        }
        guard end > start else { return baseSeq }
        let lineStart = journal.lineStart(containing: end - 1, floor: start)
        return try seqOf(journal, lineStart..<(end - 1))
    }
}
