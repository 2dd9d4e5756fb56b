import Foundation
import Glibc

// Compaction: folding the journal into a new snapshot.
extension JournaledStore {
    /// Compacts when the journal has grown past the snapshot (and past `minimumJournalBytes`).
    ///
    /// `shouldStop` is asked every ``stopCheckLines`` snapshot lines and every ``stopCheckBytes`` of
    /// journal read and of snapshot written (one poll(2) each); when it says yes, the
    /// compaction is abandoned (its temporary file removed, the store as it was) and this returns
    /// false: a long compaction never keeps a waiting sync from being served (issue 27, item 4).
    ///
    /// `written`: the contact lines the caller's last write appended, as it noted them; they are
    /// folded without being read again when they are still those lines (``WrittenContactLines``).
    @discardableResult
    package func compactIfNeeded(
        minimumJournalBytes: Int = 256 * 1024, written: WrittenContactLines = .none,
        shouldStop: () -> Bool = { false }
    ) throws -> Bool {
        var noState = StoreState<Meta>.empty
        return try compactIfNeeded(
            keeping: &noState, minimumJournalBytes: minimumJournalBytes, written: written, shouldStop: shouldStop)
    }

    /// How many snapshot lines compaction reads between two asks of its `shouldStop`.
    ///
    /// Small enough that a debug build, the one `swift run` gives, notices a doorbell within a few
    /// milliseconds: at 8,192 lines (and a MiB of journal) every signal that arrived while a large
    /// compaction was due waited about 20 ms in a debug build, and a one-change sync at 1,000,000
    /// contacts took 12× its figure at 1,000 (`contacts-bench --goals`, issue 27). A poll(2) per
    /// 1,024 lines is lost in the cost of reading them.
    package static var stopCheckLines: Int { 1024 }
    /// How many bytes of journal read, or of new snapshot written, between two asks.
    package static var stopCheckBytes: Int { 128 << 10 }

    /// Whether the journal has grown past the snapshot and past `minimumJournalBytes` (two `stat`s).
    package func isCompactionDue(minimumJournalBytes: Int = 256 * 1024) -> Bool {
        var snapshotInfo = stat()
        var journalInfo = stat()
        guard stat(journalPath, &journalInfo) == 0 else { return false }
        let snapshotSize = stat(snapshotPath, &snapshotInfo) == 0 ? Int(snapshotInfo.st_size) : 0
        return Int(journalInfo.st_size) > max(snapshotSize, minimumJournalBytes)
    }

    /// Thrown inside ``compact(shouldStop:written:)`` when `shouldStop` said yes; nothing was changed.
    package struct CompactionInterrupted: Error {}

    /// What a compaction did to the files: the journal it folded and where the store now stands.
    /// The contacts are the same before and after, so a state that had read that whole journal
    /// stays true once moved onto the new files (``StoreState/rebase(after:)``).
    package struct CompactionOutcome: Equatable, Sendable {
        /// The generation the folded journal belonged to (now the previous generation).
        package var foldedGeneration: String
        /// The folded journal's inode and the end of what was folded (its size: only a journal
        /// without a torn tail is folded whole).
        package var foldedJournalInode: UInt64
        package var foldedJournalEnd: Int
        /// The new snapshot's generation and base seq (the folded journal's head).
        package var generation: String
        package var baseSeq: Int
        /// The new, empty journal's inode and size.
        package var journalInode: UInt64
        package var journalSize: Int
        /// How many journal lines were folded as the write that appended them noted them, not read
        /// (``WrittenContactLines``).
        package var linesFoldedAsNoted = 0
    }

    /// ``compactIfNeeded(minimumJournalBytes:written:shouldStop:)`` for a caller that keeps this store's
    /// state in memory (the provider's sync engine): a state that had read the whole folded journal
    /// is moved onto the new generation instead of being loaded again. Loading it again took 220 ms
    /// at 100,000 contacts (two seconds at 1,000,000) on the first sync after every compaction.
    @discardableResult
    package func compactIfNeeded(
        keeping state: inout StoreState<Meta>, minimumJournalBytes: Int = 256 * 1024,
        written: WrittenContactLines = .none, shouldStop: () -> Bool = { false }
    ) throws -> Bool {
        guard isCompactionDue(minimumJournalBytes: minimumJournalBytes) else { return false }
        MemoryTrim.returnFreeMemory()
        let outcome: CompactionOutcome?
        do {
            outcome = try compact(shouldStop: shouldStop, written: written)
        } catch is CompactionInterrupted {
            // Abandoned for a doorbell: out of its way at once. The memory goes back after a
            // compaction that finishes (a busy machine runs this thread at background priority, and
            // a trim of a large heap there kept the waiting sync for tens of milliseconds).
            return false
        }
        MemoryTrim.returnFreeMemory()
        if let outcome { state.rebase(after: outcome) }
        return true
    }

    /// Folds the journal into a new snapshot with a new generation (anchors at the head stay valid).
    ///
    /// It keeps each contact as the byte range of its JSON in the snapshot or the journal, not as a
    /// decoded value, and streams the new snapshot to disk: memory stays near the number of
    /// contacts, not the size of the decoded address book, and contacts are copied, not re-encoded.
    /// The ``derivedIndexes`` are written for the new snapshot in the same pass, once it is durable.
    /// Throws ``CompactionInterrupted``, having changed nothing, when `shouldStop` says yes.
    ///
    /// The lines of `written` (noted by the write that appended them) are folded as noted, not read
    /// again, while each is still the line noted; the snapshot and indexes are the same bytes either
    /// way (`WrittenContactLinesTests`).
    @discardableResult
    package func compact(shouldStop: () -> Bool = { false }, written: WrittenContactLines = .none) throws
        -> CompactionOutcome?
    {
        try withLock(.exclusive) {
            guard let snapshot = try openSnapshot() else { return nil }
            let (header, headerEnd) = try parseHeader(snapshot)
            let journal = try MappedFile.openJournalIfPresent(journalPath)
            guard let journal, let start = try journalHeaderEnd(journal, snapshot: header) else {
                // Nothing of this generation to fold: the journal is one the snapshot superseded (a
                // crash between the two renames of the last compaction or reset), torn at its header,
                // or empty. Finish that step instead of starting another (``rollJournalForward(to:)``).
                try rollJournalForward(to: header)
                return nil
            }
            let encoder = LineCoding.encoder()
            let decoder = JSONDecoder()
            // The new snapshot's lines in order, kept as they are read rather than sorted at the end
            // (``CompactionFold``): the snapshot's in its order, and those the journal adds, in the journal's.
            var fold = CompactionFold(
                snapshotCount: header.count,
                expectedCount: Self.expectedCount(snapshotCount: header.count, journal: journal, from: start))
            var snapshotLines = LineCursor(
                snapshot, path: snapshotPath, from: headerEnd, lineNumber: 2, tornTail: .damage)
            var walked = 0
            while let line = snapshotLines.next() {
                walked += 1
                if walked % Self.stopCheckLines == 0 {
                    if shouldStop() { throw CompactionInterrupted() }
                    if walked % 65536 == 0 { snapshot.dropResidentPages() }
                }
                let identifier = try snapshotLines.decoding {
                    try decodeRecord(decoder, snapshot, line, retain: false).identifier
                }
                fold.snapshotLine(identifier, line)
            }
            // A contact cut short at the snapshot's end is refused, never left out of the next one.
            try snapshotLines.finish()
            var headSeq = header.baseSeq
            var meta = header.meta
            // The index keys of each contact the journal upserts, derived from the decoding that checks
            // its line, so the index pass below does not decode it again: for each contact, each
            // registered index's keys (`SearchIndexBuilder.appendKeys`) and a newline.
            let indexCount = derivedIndexes.count
            var derivedKeys: [UInt8] = []
            // Only the fields the indexes read are made (the rest checked): all, if one does not say.
            var keptFields: UInt64 = 0
            for index in derivedIndexes {
                keptFields |= index.fields.map(ContactRecordCodec.fieldMask) ?? ContactRecordCodec.allFields
            }
            // Indexes whose keys are declared by field are derived from each contact's JSON as it is
            // checked, no record made (``FieldKeyDeriver``); the others from the decoded record.
            let deriver = FieldKeyDeriver(derivedIndexes)
            let decodesContacts = indexCount > 0 && deriver == nil
            // Read once: a debug build calls `??`'s closure and the optional chains on every line.
            let capturedFields = deriver?.mask ?? 0
            let capturedRanges = deriver?.ranges
            // The lines the last write noted, while they are still the lines of this journal.
            let usesWritten =
                written.isOf(generation: header.generation, journalInode: journal.inode)
                && (indexCount == 0 || deriver != nil)
            var writtenLine = usesWritten ? 0 : written.count
            var foldedAsNoted = 0
            var journalLines = LineCursor(journal, path: journalPath, from: start, lineNumber: nil)
            // One for every line: its arrays' memory is reused, not allocated per line.
            var lineRanges = JournalLineCodec.LineRanges()
            var dropped = start
            var asked = start
            while let range = journalLines.next() {
                let position = range.lowerBound
                if position - asked > Self.stopCheckBytes {
                    asked = position
                    if shouldStop() { throw CompactionInterrupted() }
                }
                if position - dropped > 16 << 20 {
                    journal.dropResidentPages()
                    dropped = position
                }
                let seq: Int
                let line = UnsafeRawBufferPointer(rebasing: journal.bytes[range])
                if writtenLine < written.count {
                    switch written.match(writtenLine, line: line, at: position, seq: headSeq + 1) {
                    case .contact(let range, let identifier, let keys):
                        // The keys stay in the notes (`CompactedLine.notedKeys`): not copied.
                        let contact = (position + range.lowerBound)..<(position + range.upperBound)
                        fold.upsert(
                            identifier, .journal(contact, keys: keys < 0 ? -1 : CompactedLine.notedKeys(at: keys)))
                        writtenLine += 1
                        foldedAsNoted += 1
                        headSeq += 1
                        continue
                    case .before: break
                    case .mismatch: writtenLine = written.count
                    }
                }
                // Without an index the contacts are checked, not decoded (nothing would read them).
                var fast = JournalLineCodec.fastLineRanges(
                    line, into: &lineRanges, decodesContacts: decodesContacts, keeping: keptFields,
                    capturing: capturedFields, into: capturedRanges,
                    checked: {
                        guard let deriver else { return -1 }
                        let start = derivedKeys.count
                        let json = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        if deriver.appendKeys(json: json, to: &derivedKeys) { return start }
                        // Unreadable after all: this contact is decoded when the snapshot is written.
                        derivedKeys.removeLast(derivedKeys.count - start)
                        return -1
                    }
                ) { record in
                    let start = derivedKeys.count
                    var position = 0
                    while position < indexCount {
                        SearchIndexBuilder.appendKeys(of: record, index: derivedIndexes[position], to: &derivedKeys)
                        derivedKeys.append(0x0A)
                        position += 1
                    }
                    return start
                }
                // A meta Foundation cannot decode sends the whole line to Foundation, which reports it.
                var lineMeta: Meta?
                if fast, let metaRange = lineRanges.meta {
                    lineMeta = JournalLineCodec.decodeMeta(Meta.self, UnsafeRawBufferPointer(rebasing: line[metaRange]))
                    if lineMeta == nil { fast = false }
                }
                if fast {
                    seq = lineRanges.seq
                    guard seq == headSeq + 1 else {
                        throw journalLines.malformed("sequence number \(seq) does not follow \(headSeq)")
                    }
                    // Index loops, not `for … in`: a debug build runs that iterator generically, per line.
                    var item = 0
                    while item < lineRanges.upsert.count {
                        let upserted = lineRanges.upsert[item]
                        let range = (position + upserted.range.lowerBound)..<(position + upserted.range.upperBound)
                        fold.upsert(upserted.identifier, .journal(range, keys: upserted.tag))
                        item += 1
                    }
                    item = 0
                    while item < lineRanges.delete.count {
                        fold.delete(lineRanges.delete[item])
                        item += 1
                    }
                    if let lineMeta { meta = lineMeta }
                } else {
                    let entry = try journalLines.decoding {
                        try decoder.decode(JournalEntry<Meta>.self, from: journal.data(range))
                    }
                    seq = entry.seq
                    guard seq == headSeq + 1 else {
                        throw journalLines.malformed("sequence number \(seq) does not follow \(headSeq)")
                    }
                    for record in entry.upsert ?? [] {
                        fold.upsert(record.identifier, .encoded(try ContactRecordCodec.encode(record)))
                    }
                    for identifier in entry.delete ?? [] { fold.delete(identifier) }
                    if let entryMeta = entry.meta { meta = entryMeta }
                }
                headSeq = seq
            }
            let generation = UUID().uuidString
            let lines = fold.finish()
            let newHeader = SnapshotHeader(
                format: StoreFormat.version, kind: "snapshot", generation: generation,
                previousGeneration: header.generation, baseSeq: headSeq, count: lines.count, meta: meta)
            // The registered indexes of the new snapshot, built in this pass: an unchanged contact's
            // keys are carried from the old index (when it is valid), a changed one's derived.
            var indexes = derivedIndexes.map { index in
                DerivedIndexPass(
                    builder: SearchIndexBuilder(index: index, expectedCount: lines.count),
                    stored: (try? verifiedIndex(index, snapshot: snapshot, header: header)).map {
                        StoredIndexKeys(file: $0.file, bodyStart: $0.start)
                    })
            }
            var snapshotSize = 0
            SecureFile.sweepTemporaryFiles(in: directory)
            try SecureFile.replace(snapshotPath) { fd, temp in
                var buffer = try encoder.encode(newHeader)
                buffer.append(UInt8(ascii: "\n"))
                var chunksWritten = 0
                var askedAt = 0  // the buffer's size when `shouldStop` was last asked
                // The derived keys' bytes taken once, and index loops, not `for … in`: a debug build
                // runs the iterators generically and calls `withUnsafeBytes`' closure, once per contact.
                let indexCount = indexes.count
                let newline: StaticString = "\n"
                try derivedKeys.withUnsafeBytes { derived in
                    try written.keys.withUnsafeBytes { noted in
                        var item = 0
                        while item < lines.count {
                            let line = lines[item]
                            item += 1
                            let offset = snapshotSize + buffer.count
                            switch line {
                            case .snapshot(let range): snapshot.append(range, to: &buffer)
                            case .journal(let range, _): journal.append(range, to: &buffer)
                            case .encoded(let data): buffer.append(data)
                            }
                            let keys = line.derivedKeys
                            if keys != -1 {
                                // Keys derived while the journal was read, or noted as it was written:
                                // each index's, newline-terminated.
                                let all = keys >= 0 ? derived : noted
                                var start = keys >= 0 ? keys : CompactedLine.notedKeys(at: keys)
                                var position = 0
                                while position < indexCount {
                                    let newline = memchr(all.baseAddress! + start, 0x0A, all.count - start)!
                                    let end = all.baseAddress!.distance(to: UnsafeRawPointer(newline))
                                    indexes[position].add(
                                        offset: offset, derivedKeys: UnsafeRawBufferPointer(rebasing: all[start..<end]))
                                    start = end + 1
                                    position += 1
                                }
                            } else {
                                for position in indexes.indices {
                                    indexes[position].add(offset: offset, oldOffset: line.snapshotOffset) {
                                        switch line {
                                        case .snapshot(let range):
                                            return try ContactRecordCodec.decode(snapshot.bytes, range: range)
                                        case .journal(let range, _):
                                            return try ContactRecordCodec.decode(journal.bytes, range: range)
                                        case .encoded(let data): return try ContactRecordCodec.decode(data)
                                        }
                                    }
                                }
                            }
                            // Through a pointer: `append(_:)` of one byte is the generic one in a debug build.
                            buffer.append(newline.utf8Start, count: 1)
                            if buffer.count - askedAt > Self.stopCheckBytes {
                                if shouldStop() { throw CompactionInterrupted() }
                                askedAt = buffer.count
                            }
                            if buffer.count > 1 << 20 {
                                askedAt = 0
                                try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
                                snapshotSize += buffer.count
                                buffer.removeAll(keepingCapacity: true)
                                chunksWritten += 1
                                // Contacts are copied in identifier order, mostly sequential in both files.
                                if chunksWritten % 16 == 0 {
                                    snapshot.dropResidentPages()
                                    journal.dropResidentPages()
                                }
                            }
                        }
                    }
                }
                try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
                snapshotSize += buffer.count
            }
            afterReplacingSnapshot?()
            if retainsPreviousJournal { retainFoldedJournal() }
            try writeEmptyJournal(generation: generation, baseSeq: headSeq)
            // Only now, with the snapshot durable: a crash before this leaves the old index (stale).
            for pass in indexes where !pass.abandoned {
                pass.builder.write(
                    to: path(of: pass.builder.index), generation: generation, snapshotPath: snapshotPath,
                    expectedSnapshotSize: snapshotSize)
            }
            var newJournal = stat()
            guard stat(journalPath, &newJournal) == 0 else { return nil }
            return CompactionOutcome(
                foldedGeneration: header.generation, foldedJournalInode: journal.inode, foldedJournalEnd: journal.size,
                generation: generation, baseSeq: headSeq, journalInode: UInt64(newJournal.st_ino),
                journalSize: Int(newJournal.st_size), linesFoldedAsNoted: foldedAsNoted)
        }
    }

    /// How many identifiers a compaction will hold, to size its lists (or dictionary) once: the live
    /// count the journal's last line carries (appends write it there), when that is more than the
    /// snapshot's. After a full sync the snapshot is empty and the journal holds every contact:
    /// growing a dictionary step by step hashed every identifier again at each step (`perf`). Only
    /// a size: a count no line carries gives the snapshot's, and no count reserves more than the
    /// journal's bytes could hold (a contact's JSON takes at least 16 of them).
    static func expectedCount(snapshotCount: Int, journal: MappedFile, from start: Int) -> Int {
        let bytes = journal.bytes
        var lineEnd = journal.size - 1
        while lineEnd >= start, bytes[lineEnd] != 0x0A { lineEnd -= 1 }
        guard lineEnd > start else { return snapshotCount }
        var lineStart = lineEnd - 1
        while lineStart >= start, bytes[lineStart] != 0x0A { lineStart -= 1 }
        lineStart += 1
        let prefix = journal.data(lineStart..<min(lineEnd, lineStart + 64))
        guard let counted = LineCoding.fastSeqAndLiveCount(prefix) else { return snapshotCount }
        let bound = snapshotCount + (journal.size - start) / 16
        return max(snapshotCount, min(counted.liveCount, bound))
    }
}
