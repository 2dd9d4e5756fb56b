import Foundation

// Reading every contact without holding the address book (issue 44, "every command streams").
//
// A command that reads the whole store (`list`, `export`, `system list`, a scanning `search`,
// `doctor`) goes through it once, front to back. The journal's changes since the last compaction are
// read first, into an overlay (bounded by compaction, like the journal itself); then the snapshot,
// which is immutable (replaced whole by a rename, so the mapping stays the generation that was read
// even if a writer compacts meanwhile), is read line by line in its order: a contact the journal
// changed is handed on as the journal has it (or not at all, deleted), any other as its line says,
// decoded when it is reached and dropped after, the mapped pages behind the reader released; the
// contacts the journal added come last, in the order it first added them. That is `load()`'s order
// (the snapshot's, then the journal's new identifiers), and memory is the overlay and one contact,
// not the address book: the bound `docs/cli.md` states.
extension JournaledStore {
    /// Every live contact, in `load().contacts`' order, decoded one at a time and given to `body`;
    /// `count` is told how many first. The overlay is read once (never waiting for a writer).
    ///
    /// A snapshot line that `load()` would refuse (bad JSON or value, out of order, a header count
    /// the file does not hold) is refused here too, as a malformed line of the snapshot, when it is
    /// reached, so nothing is skipped without a word.
    package func forEachContact(count: (Int) -> Void = { _ in }, _ body: (ContactRecord) throws -> Void) throws {
        guard let opened = try withLock(.shared, { try openForStreaming() }) else {
            count(0)
            return
        }
        let (snapshot, header, headerEnd, overlay) = opened
        count(try liveCount(snapshot, header: header, headerEnd: headerEnd, overlay: overlay))
        let decoder = JSONDecoder()
        var lines = LineCursor(snapshot, path: snapshotPath, from: headerEnd, lineNumber: 2, tornTail: .damage)
        var previous: String?
        var read = 0
        var inSnapshot: Set<String> = []
        var pagesBehind = MappedFile.PagesBehindReader(stride: Self.releaseStride)
        while let line = lines.next() {
            let record = try lines.decoding { try decodeRecord(decoder, snapshot, line, retain: true) }
            if let previous, !IdentifierOrder.precedes(previous, record.identifier) {
                throw lines.malformed("identifier '\(record.identifier)' is out of order (after '\(previous)')")
            }
            previous = record.identifier
            read += 1
            if let changed = overlay.values[record.identifier] {
                inSnapshot.insert(record.identifier)
                if let changed { try body(changed) }
            } else {
                try body(record)
            }
            pagesBehind.reached(line.upperBound, in: snapshot)
        }
        try lines.finish()
        if read != header.count {
            throw lines.malformed("header says \(header.count) contacts but the file holds \(read)")
        }
        for identifier in overlay.added where !inSnapshot.contains(identifier) {
            if let record = overlay.values[identifier] ?? nil { try body(record) }
        }
    }

    /// How many bytes of the snapshot a streaming reader goes through before it releases their pages.
    static var releaseStride: Int { 4 << 20 }

    /// The journal's changes over the snapshot, folded: each identifier's last value (nil: deleted)
    /// and the order in which the journal first added identifiers (where `load()` puts new ones).
    struct JournalOverlay {
        var values: [String: ContactRecord?] = [:]
        var added: [String] = []
        /// The identifiers some entry upserted (`added`'s members).
        var upserted: Set<String> = []
    }

    /// The snapshot (mapped, its header parsed) and the journal's overlay of one committed state, or
    /// nil for a store never written. Called under the shared lock or, when a writer holds it,
    /// without it (the caller's `withLock` starts over if a compaction replaced the files meanwhile).
    private func openForStreaming() throws -> (MappedFile, SnapshotHeader<Meta>, Int, JournalOverlay)? {
        guard let snapshot = try openSnapshot() else { return nil }
        let (header, headerEnd) = try parseHeader(snapshot)
        var overlay = JournalOverlay()
        guard let journal = try openJournalForReading(),
            let start = try journalHeaderEnd(journal, snapshot: header)
        else { return (snapshot, header, headerEnd, overlay) }
        let decoder = JSONDecoder()
        var headSeq = header.baseSeq
        var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
        while let line = lines.next() {
            let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: true) }
            guard entry.seq == headSeq + 1 else {
                throw lines.malformed("sequence number \(entry.seq) does not follow \(headSeq)")
            }
            headSeq = entry.seq
            for record in entry.upsert ?? [] {
                overlay.values[record.identifier] = .some(record)
                // Its place is its first upsert (a delete before it gives none, as in `load()`'s order).
                if overlay.upserted.insert(record.identifier).inserted { overlay.added.append(record.identifier) }
            }
            for identifier in entry.delete ?? [] {
                overlay.values[identifier] = .some(nil)
            }
        }
        return (snapshot, header, headerEnd, overlay)
    }

    /// The live contacts of the snapshot with the overlay over it (``liveCount(_:header:headerEnd:liveness:)``).
    private func liveCount(
        _ snapshot: MappedFile, header: SnapshotHeader<Meta>, headerEnd: Int, overlay: JournalOverlay
    ) throws -> Int {
        try liveCount(snapshot, header: header, headerEnd: headerEnd, liveness: overlay.values.mapValues { $0 != nil })
    }

    /// The live contacts once the journal's changes are applied to the snapshot, given whether the
    /// journal left each identifier it touched live: the header's count, plus each such identifier
    /// live now that the snapshot lacks, minus each deleted now that the snapshot holds (a binary
    /// search of the sorted snapshot each: O(journal × log N)). `summary()` and `forEachContact`
    /// count this one way.
    func liveCount(
        _ snapshot: MappedFile, header: SnapshotHeader<Meta>, headerEnd: Int, liveness: [String: Bool]
    ) throws -> Int {
        var count = header.count
        for (identifier, isLive) in liveness {
            let wasThere = try snapshotLine(snapshot, from: headerEnd, identifier: identifier) != nil
            count += (isLive ? 1 : 0) - (wasThere ? 1 : 0)
        }
        return count
    }

    /// Checks the store as `load()` does (every line of both files decoded, values included) while
    /// keeping only the set of its identifiers (to find duplicates): `doctor` checks a store without
    /// holding it decoded, nor the positions a state that pages keeps.
    package func verify() throws {
        let light = JournaledStore(directory: directory, retainsContacts: false, keepsOrder: false)
        try light.withLock(.shared) { _ = try light.loadUnlocked(retain: false, verifyingValues: true) }
    }

    /// The 1-based line of the byte at `offset` (an error's line: counted only when one is reported).
    static func lineNumber(of offset: Int, in file: MappedFile) -> Int {
        var line = 1
        for byte in UnsafeRawBufferPointer(rebasing: file.bytes[0..<min(offset, file.size)]) where byte == 0x0A {
            line += 1
        }
        return line
    }
}
