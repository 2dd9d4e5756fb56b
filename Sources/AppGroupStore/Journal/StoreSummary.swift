import Foundation
import Glibc

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
    /// The store's count, head and metadata from the snapshot's header and the journal's last line,
    /// or its entries: O(1) or O(journal × log N), never O(N) — the snapshot's contacts are not read.
    ///
    /// When the journal's last line carries the live count (written by appends that hold the store's
    /// state: the sync engine's pages and batches) and its metadata, that line is the answer: a
    /// summary reads the journal's header and its tail, however many contacts a full sync just wrote
    /// (issue 44: `status` during the compaction after a full sync). Lines before it are not checked;
    /// `load()` and `doctor` check every line.
    ///
    /// Otherwise the header's count is the one `load()` checks against the file; each identifier the
    /// journal mentions is looked up once in the sorted snapshot (binary search) to know whether its
    /// last change added a contact, replaced one or removed one (``liveCount(_:header:headerEnd:liveness:)``).
    /// The journal is then checked as `load()` checks it (every line decodes, seqs follow each other),
    /// so damage there is reported.
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
            if let newest = try newestCountedEntry(after: header) {
                return StoreSummary(
                    generation: header.generation, headSeq: newest.seq, count: newest.count, meta: newest.meta)
            }
            var meta = header.meta
            var headSeq = header.baseSeq
            guard let journal = try openJournalForReading(),
                let start = try journalHeaderEnd(journal, snapshot: header)
            else {
                return StoreSummary(generation: header.generation, headSeq: headSeq, count: header.count, meta: meta)
            }
            // Whether the journal left each identifier it touched live (its last entry for it decides).
            var live: [String: Bool] = [:]
            let decoder = JSONDecoder()
            var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
            while let line = lines.next() {
                let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: false) }
                guard entry.seq == headSeq + 1 else {
                    throw lines.malformed("sequence number \(entry.seq) does not follow \(headSeq)")
                }
                for record in entry.upsert ?? [] { live[record.identifier] = true }
                for identifier in entry.delete ?? [] { live[identifier] = false }
                if let entryMeta = entry.meta { meta = entryMeta }
                headSeq = entry.seq
            }
            let count = try liveCount(snapshot, header: header, headerEnd: headerEnd, liveness: live)
            return StoreSummary(generation: header.generation, headSeq: headSeq, count: count, meta: meta)
        }
    }
}

extension JournaledStore {
    /// The journal's last complete line when it carries the live count (and the metadata, for stores
    /// that keep one), read from the file's end with `pread`: nil sends the caller to the full count
    /// (no such line, a journal of another generation, a line that does not decode — which the full
    /// count then reports with its line number).
    fileprivate func newestCountedEntry(after header: SnapshotHeader<Meta>) throws -> (
        seq: Int, count: Int, meta: Meta?
    )? {
        guard let fd = try SecureFile.openForReadingIfPresent(journalPath) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        // The committed bytes: a writeback hole and what follows it were never acknowledged. One
        // window serves the hole check and the search for the last line, which lies in what it read.
        var window = FileWindow(fd: fd, path: journalPath, size: Int(info.st_size))
        let end = try JournalHoles.committedEnd(&window, inode: UInt64(info.st_ino))
        let head = try SecureFile.read(fd: fd, path: journalPath, offset: 0, count: min(end, 4096))
        guard let newline = head.firstIndex(of: 0x0A),
            let journalHeader = try? StoreHeaderCodec.decodeJournalHeader(Data(head[..<newline])),
            journalHeader.format == StoreFormat.version, journalHeader.generation == header.generation,
            journalHeader.baseSeq == header.baseSeq
        else { return nil }
        guard let line = try JournalTail.lastCompleteLine(&window, from: newline + 1, to: end)?.bytes,
            let prefix = LineCoding.fastSeqAndLiveCount(line), prefix.seq > header.baseSeq
        else { return nil }
        // Only the seq and the metadata are kept: the line's contacts are checked, not built.
        let entry = line.withUnsafeBytes { JournalLineCodec.fastRanges($0, metaType: Meta.self) }
        guard let entry, entry.seq == prefix.seq, entry.meta != nil || Meta.self == NoMetadata.self else {
            return nil
        }
        return (prefix.seq, prefix.liveCount, entry.meta ?? header.meta)
    }
}
