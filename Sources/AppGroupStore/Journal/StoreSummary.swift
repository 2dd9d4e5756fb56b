import Foundation

/// What a store holds, in numbers: the answer `status` needs, without reading every contact.
package struct StoreSummary<Meta: Codable & Equatable & Sendable>: Sendable {
    /// The store's generation ("" when it was never written).
    package let generation: String
    /// The seq of the newest committed entry.
    package let headSeq: Int
    /// Live contacts.
    package let count: Int
    /// The newest metadata (the snapshot's, or the last journal entry that carried one).
    package let meta: Meta?
}

extension JournaledStore {
    /// The store's count, head and metadata from the snapshot's header and the journal's entries:
    /// O(journal × log N), not O(N) — the snapshot's contacts are not read.
    ///
    /// The header's count is the one `load()` checks against the file; each identifier the journal
    /// mentions is looked up in the sorted snapshot (binary search) to know whether an upsert added a
    /// contact or replaced one, and whether a delete removed one. The journal is checked as `load()`
    /// checks it (every line decodes, seqs follow each other), so damage there is still reported.
    package func summary() throws -> StoreSummary<Meta> {
        try withLock(.shared) {
            guard let snapshot = try openSnapshot() else {
                return StoreSummary(generation: "", headSeq: 0, count: 0, meta: nil)
            }
            let (header, headerEnd) = try parseHeader(snapshot)
            // A snapshot is written whole and renamed into place: a last line without its newline is damage.
            if snapshot.bytes[snapshot.size - 1] != 0x0A {
                throw StoreError.malformed(
                    path: snapshotPath, line: snapshot.countLines(upTo: snapshot.size) + 1,
                    reason: "truncated line (no newline)")
            }
            var count = header.count
            var meta = header.meta
            var headSeq = header.baseSeq
            guard let journal = try openJournalForReading(),
                let start = try journalHeaderEnd(journal, snapshot: header)
            else {
                return StoreSummary(generation: header.generation, headSeq: headSeq, count: count, meta: meta)
            }
            // Whether each identifier the journal touched is live now (first answer: in the snapshot).
            var live: [String: Bool] = [:]
            func isLive(_ identifier: String) throws -> Bool {
                if let known = live[identifier] { return known }
                return try snapshotLine(snapshot, from: headerEnd, identifier: identifier) != nil
            }
            let decoder = JSONDecoder()
            var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
            while let line = lines.next() {
                let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: false) }
                guard entry.seq == headSeq + 1 else {
                    throw lines.malformed("sequence number \(entry.seq) does not follow \(headSeq)")
                }
                for record in entry.upsert ?? [] {
                    if try !isLive(record.identifier) { count += 1 }
                    live[record.identifier] = true
                }
                for identifier in entry.delete ?? [] {
                    if try isLive(identifier) { count -= 1 }
                    live[identifier] = false
                }
                if let entryMeta = entry.meta { meta = entryMeta }
                headSeq = entry.seq
            }
            return StoreSummary(generation: header.generation, headSeq: headSeq, count: count, meta: meta)
        }
    }
}
