import Foundation
import Glibc

// Reading: loading the store into memory, refreshing a loaded state, headers.
extension JournaledStore {
    /// Loads the whole store into memory.
    package func load() throws -> StoreState<Meta> {
        try withLock(.shared) { try loadUnlocked() }
    }

    /// Brings `state` up to date, reading only the journal lines appended since it was loaded.
    package func refresh(_ state: inout StoreState<Meta>) throws {
        try withLock(.shared) {
            guard let header = try readSnapshotHeader(), header.generation == state.generation else {
                state = try loadUnlocked()
                return
            }
            // Nothing appended (the idle case): no need to map the journal. Unmapping a file in a
            // multi-threaded process flushes every CPU's TLB, the largest part of an idle signal.
            var info = stat()
            if stat(journalPath, &info) == 0, UInt64(info.st_ino) == state.journalInode,
                Int(info.st_size) == state.journalOffset, state.journalOffset > 0
            {
                return
            }
            try applyJournalUnlocked(to: &state)
        }
    }

    /// Brings `state` up to date with the journal's new lines, or reloads it when the journal is
    /// another file or shorter than what `state` read (a compaction or reset happened). The caller
    /// holds the lock.
    func applyJournalUnlocked(to state: inout StoreState<Meta>) throws {
        guard let journal = try openJournalForReading(), journal.inode == state.journalInode,
            journal.size >= state.journalOffset
        else {
            state = try loadUnlocked()
            return
        }
        try applyJournal(journal, from: state.journalOffset, firstLine: nil, to: &state)
    }

    /// Loads the store; `retain` false keeps identifiers only (compaction always needs values).
    /// `verifyingValues`: every line is decoded whole, as a retaining load decodes it (so it is
    /// refused as `load()` refuses it), whatever is kept (``verify()``).
    func loadUnlocked(retain: Bool? = nil, verifyingValues: Bool = false) throws -> StoreState<Meta> {
        fullLoads += 1
        let retain = retain ?? retainsContacts
        guard let snapshot = try openSnapshot() else { return .empty }
        let (header, headerEnd) = try parseHeader(snapshot)
        var state = StoreState<Meta>(
            generation: header.generation, previousGeneration: header.previousGeneration, baseSeq: header.baseSeq,
            headSeq: header.baseSeq, records: [:], order: [], meta: header.meta, positions: [:])
        state.identifiersOnly = !retain
        state.membersOnly = !retain && !keepsOrder
        if state.membersOnly {
            state.members.reserveCapacity(header.count)
        } else {
            state.records.reserveCapacity(header.count)
            state.order.reserveCapacity(header.count)
            state.positions.reserveCapacity(header.count)
        }
        let decoder = JSONDecoder()
        let lazy = retain && lazySnapshot
        var lines = LineCursor(snapshot, path: snapshotPath, from: headerEnd, lineNumber: 2, tornTail: .damage)
        var previous: String?
        var count = 0
        while let line = lines.next() {
            // Lazy: parse the line (so a malformed one is reported now) but keep only its range.
            let record = try lines.decoding {
                try decodeRecord(decoder, snapshot, line, retain: (retain && !lazy) || verifyingValues)
            }
            if state.contains(record.identifier) {
                throw lines.malformed("duplicate identifier '\(record.identifier)'")
            }
            // Lookups binary-search the snapshot: an unsorted one would answer them wrongly without a word.
            if let previous, !IdentifierOrder.precedes(previous, record.identifier) {
                throw lines.malformed("identifier '\(record.identifier)' is out of order (after '\(previous)')")
            }
            previous = record.identifier
            count += 1
            if state.membersOnly {
                state.members.insert(record.identifier)
                continue
            }
            state.positions[record.identifier] = state.order.count
            state.order.append(record.identifier)
            if !retain {
                state.snapshotLines[record.identifier] = 0..<0
            } else if lazy {
                state.snapshotLines[record.identifier] = line
                state.snapshotFile = snapshot
            } else {
                state.records[record.identifier] = record
            }
        }
        try lines.finish()
        if count != header.count {
            throw lines.malformed("header says \(header.count) contacts but the file holds \(count)")
        }
        if let journal = try openJournalForReading() {
            state.journalInode = journal.inode
            if let journalHeaderEnd = try journalHeaderEnd(journal, snapshot: header) {
                try applyJournal(
                    journal, from: journalHeaderEnd, firstLine: 2, to: &state, retain: retain || verifyingValues)
            } else {
                state.journalOffset = journal.size
            }
        }
        return state
    }

    /// Applies complete journal lines from byte `start` (a torn tail is ignored).
    private func applyJournal(
        _ journal: MappedFile, from start: Int, firstLine: Int?, to state: inout StoreState<Meta>, retain: Bool? = nil
    ) throws {
        let retain = retain ?? retainsContacts
        let decoder = JSONDecoder()
        // The line number is only needed for an error; counting lines up to `start` would make every
        // refresh O(journal) instead of O(new lines).
        var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: firstLine)
        while let line = lines.next() {
            let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: retain) }
            guard entry.seq == state.headSeq + 1 else {
                throw lines.malformed("sequence number \(entry.seq) does not follow \(state.headSeq)")
            }
            state.apply(entry)
        }
        state.journalInode = journal.inode
        state.journalOffset = lines.offset
    }

    func parseHeader(_ snapshot: MappedFile) throws -> (SnapshotHeader<Meta>, Int) {
        guard let end = snapshot.newline(from: 0) else {
            throw StoreError.malformed(path: snapshotPath, line: 1, reason: "missing header line")
        }
        // Headers are re-read on every query; decoding the same bytes again is the costly part.
        let line = snapshot.data(0..<end)
        if let cached = snapshotHeaderCache, cached.line == line { return (cached.header, end + 1) }
        let (header, headerEnd) = try decodeHeader(snapshot, end: end)
        snapshotHeaderCache = (line, header)
        return (header, headerEnd)
    }

    private func decodeHeader(_ snapshot: MappedFile, end: Int) throws -> (SnapshotHeader<Meta>, Int) {
        let header: SnapshotHeader<Meta>
        do {
            header = try StoreHeaderCodec.decodeSnapshotHeader(
                UnsafeRawBufferPointer(rebasing: snapshot.bytes[0..<end]))
        } catch {
            if let format = try? JSONDecoder().decode(FormatProbe.self, from: snapshot.data(0..<end)),
                format.format != StoreFormat.version
            {
                throw StoreError.unsupportedFormat(path: snapshotPath, version: format.format)
            }
            throw StoreError.malformed(path: snapshotPath, line: 1, reason: LineCoding.reason(error))
        }
        guard header.format == StoreFormat.version else {
            throw StoreError.unsupportedFormat(path: snapshotPath, version: header.format)
        }
        guard header.kind == "snapshot" else {
            throw StoreError.malformed(
                path: snapshotPath, line: 1, reason: "kind is '\(header.kind)', expected 'snapshot'")
        }
        return (header, end + 1)
    }

    private struct FormatProbe: Decodable {
        var format: Int
    }

    /// The snapshot's header alone (one small read).
    package func readSnapshotHeader() throws -> SnapshotHeader<Meta>? {
        // The header is the first line: read a prefix, not the (possibly large) whole snapshot.
        guard let prefix = try openSnapshot(prefix: MappedFile.readLimit) else { return nil }
        if prefix.newline(from: 0) != nil { return try parseHeader(prefix).0 }
        guard let snapshot = try openSnapshot() else { return nil }
        return try parseHeader(snapshot).0
    }

    /// The end of the journal's header when it extends `snapshot`; nil when it holds nothing committed
    /// (empty, or a torn header) or is proven superseded by `snapshot`. Any other journal is damage.
    func journalHeaderEnd(_ journal: MappedFile, snapshot: SnapshotHeader<Meta>) throws -> Int? {
        guard journal.size > 0 else { return nil }
        guard let end = journal.newline(from: 0) else { return nil }  // a torn header: never committed
        let line = journal.data(0..<end)
        let header: JournalHeader
        if let cached = journalHeaderCache, cached.line == line {
            header = cached.header
        } else {
            do {
                header = try StoreHeaderCodec.decodeJournalHeader(line)
            } catch {
                throw StoreError.malformed(path: journalPath, line: 1, reason: LineCoding.reason(error))
            }
            journalHeaderCache = (line, header)
        }
        guard header.format == StoreFormat.version else {
            throw StoreError.unsupportedFormat(path: journalPath, version: header.format)
        }
        guard header.generation == snapshot.generation else {
            try checkSuperseded(journal, header: header, headerEnd: end + 1, by: snapshot)
            return nil
        }
        guard header.baseSeq == snapshot.baseSeq else {
            throw StoreError.malformed(
                path: journalPath, line: 1,
                reason: "the header's baseSeq \(header.baseSeq) is not the snapshot's \(snapshot.baseSeq)")
        }
        return end + 1
    }
}
