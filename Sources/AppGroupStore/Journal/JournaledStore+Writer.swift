import Foundation
import Glibc

extension JournaledStore {
    /// Appends to the journal while the exclusive lock is held.
    package final class Writer {
        private let store: JournaledStore
        private var header: SnapshotHeader<Meta>
        private var fd: Int32 = -1
        private var head: Int
        private var end: Int
        /// How many contacts are live at the journal's end, when the writer knows: from the snapshot's
        /// header over an empty journal, or from a last line that carries its count, then kept by each
        /// append whose caller knows what it changes (``append(upsert:delete:meta:author:durable:liveCountChange:)``,
        /// ``appendEach(_:)``). nil once a line without a count is written.
        private var liveCount: Int?
        /// Where the journal ended, its head and live count, when it was last known durable: a failed
        /// `fdatasync` cuts the file back to here (issue 42, item 2), so a change that was refused is never readable.
        private var lastDurable: (end: Int, head: Int, liveCount: Int?) = (0, 0, nil)

        /// What a caller with an up-to-date state already knows about the journal's end.
        struct KnownEnd {
            var generation: String
            var inode: UInt64
            var offset: Int
            var headSeq: Int
        }

        init(store: JournaledStore, known: KnownEnd? = nil) throws {
            self.store = store
            if let existing = try store.readSnapshotHeader() {
                header = existing
            } else {
                let generation = UUID().uuidString
                try store.writeSnapshot(
                    generation: generation, previousGeneration: nil, baseSeq: 0, records: [], meta: nil)
                try store.writeEmptyJournal(generation: generation, baseSeq: 0)
                header = try store.readSnapshotHeader()!
            }
            fd = try SecureFile.open(store.journalPath, flags: O_RDWR, create: true)
            head = header.baseSeq
            end = 0
            // The caller's state ends exactly where the file ends, in the same file and generation:
            // the last line is the one it read or wrote, so there is nothing to re-read or repair.
            if let known, known.generation == header.generation, known.inode == inode, known.offset > 0,
                try currentSize() == known.offset, try journalGeneration() == header.generation
            {
                head = known.headSeq
                end = known.offset
                lastDurable = (end, head, nil)
                return
            }
            // A journal of another generation is rewritten below only once proven superseded.
            if let journal = try MappedFile.openJournalIfPresent(store.journalPath) {
                _ = try store.journalHeaderEnd(journal, snapshot: header)
            }
            try openJournal()
            lastDurable = (end, head, liveCount)
        }

        /// The store's generation.
        package var generation: String { header.generation }
        /// The seq of the newest committed entry.
        package var headSeq: Int { head }
        /// The journal's size after the last complete line.
        var endOffset: Int { end }
        /// The journal file's inode.
        var inode: UInt64 {
            var info = stat()
            return fstat(fd, &info) == 0 ? UInt64(info.st_ino) : 0
        }

        private func openJournal() throws {
            let path = store.journalPath
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path, operation: "fstat", errno: errno) }
            let fileSize = Int(info.st_size)
            // An append with a writeback hole was never acknowledged: it is cut off with any torn tail.
            // One window serves the hole check and the search for the last line below (as `summary()`).
            var window = FileWindow(fd: fd, path: path, size: fileSize)
            let size = try JournalHoles.committedEnd(&window, inode: UInt64(info.st_ino))
            // A missing, torn or stale header: the journal holds nothing committed for this generation.
            var headerData = try SecureFile.read(fd: fd, path: path, offset: 0, count: min(size, 4096))
            if !headerData.contains(0x0A), size > headerData.count {
                // A first line this long is no header of ours; look for its end as readers do, so a
                // damaged header is reported (not mistaken for a torn one and the journal rewritten).
                headerData = try SecureFile.read(fd: fd, path: path, offset: 0, count: size)
            }
            var headerEnd: Int?
            if let newline = headerData.firstIndex(of: 0x0A) {
                let parsed: JournalHeader
                do {
                    parsed = try StoreHeaderCodec.decodeJournalHeader(Data(headerData[..<newline]))
                } catch {
                    throw StoreError.malformed(path: path, line: 1, reason: LineCoding.reason(error))
                }
                guard parsed.format == StoreFormat.version else {
                    throw StoreError.unsupportedFormat(path: path, version: parsed.format)
                }
                if parsed.generation == header.generation { headerEnd = newline + 1 }
            }
            guard let headerEnd else {
                Glibc.close(fd)
                try store.writeEmptyJournal(generation: header.generation, baseSeq: header.baseSeq)
                fd = try SecureFile.open(path, flags: O_RDWR, create: true)
                head = header.baseSeq
                end = try currentSize()
                liveCount = header.count
                return
            }
            // Find the last complete line; cut off a torn tail left by a crash.
            guard let last = try JournalTail.lastCompleteLine(&window, from: headerEnd, to: size) else {
                try truncate(to: headerEnd)
                head = header.baseSeq
                end = headerEnd
                liveCount = header.count
                return
            }
            let completeEnd = last.start + last.bytes.count + 1
            // Check the last complete line before cutting anything off: a damaged journal stays as it was.
            head = try lastSeq(last.bytes, startingAt: last.start)
            if completeEnd < fileSize { try truncate(to: completeEnd) }
            end = completeEnd
            if let counted = LineCoding.fastSeqAndLiveCount(last.bytes), counted.seq == head {
                liveCount = counted.liveCount
            }
        }

        /// The seq of the last complete line, which must be a whole, readable entry: appending after a
        /// line that readers reject would only bury the damage (and the file must stay as it was).
        ///
        /// Read as readers read it (``JournalLineCodec``, then Foundation for what that leaves): a
        /// command's first `JSONDecoder` use built its metadata, a tenth of an `add` (`perf`).
        private func lastSeq(_ line: Data.SubSequence, startingAt lineStart: Int) throws -> Int {
            let fast: JournalEntry<Meta>? = line.withUnsafeBytes {
                JournalLineCodec.fastEntry($0, identifiersOnly: false)
            }
            if let fast { return fast.seq }
            do {
                return try JSONDecoder().decode(JournalEntry<Meta>.self, from: Data(line)).seq
            } catch {
                throw StoreError.malformed(
                    path: store.journalPath, line: try lineNumber(at: lineStart), reason: LineCoding.reason(error))
            }
        }

        /// The 1-based number of the line that starts at byte `offset` (only computed for errors).
        private func lineNumber(at offset: Int) throws -> Int {
            let before = try SecureFile.read(fd: fd, path: store.journalPath, offset: 0, count: offset)
            return before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }

        /// The generation named by the journal's header line (nil when it has none).
        private func journalGeneration() throws -> String? {
            let prefix = try SecureFile.read(fd: fd, path: store.journalPath, offset: 0, count: 1024)
            guard let newline = prefix.firstIndex(of: 0x0A) else { return nil }
            let line = Data(prefix[..<newline])
            if let cached = store.journalHeaderCache, cached.line == line { return cached.header.generation }
            guard let parsed = try? StoreHeaderCodec.decodeJournalHeader(line) else { return nil }
            store.journalHeaderCache = (line, parsed)
            return parsed.generation
        }

        private func currentSize() throws -> Int {
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw StoreError.io(path: store.journalPath, operation: "fstat", errno: errno)
            }
            return Int(info.st_size)
        }

        private func truncate(to size: Int) throws {
            guard ftruncate(fd, off_t(size)) == 0 else {
                throw StoreError.io(path: store.journalPath, operation: "ftruncate", errno: errno)
            }
            try SecureFile.sync(fd: fd, path: store.journalPath)
        }

        /// The current value of a contact (reads under the held lock).
        package func lookup(_ identifier: String) throws -> ContactRecord? {
            try store.lookupUnlocked(identifier)
        }

        /// Which contacts exist (identifiers only, read under the held lock): O(store) once, for
        /// checks over many identifiers.
        package func identifiers() throws -> StoreState<Meta> {
            try store.loadUnlocked(retain: false)
        }

        /// Appends one entry with seq `headSeq + 1`; with `durable` (the default) it is on disk
        /// before this returns. Bulk writers pass false and call `sync()` once at the end (group commit).
        /// `author` (a save request's transaction author) is written in the entry's own line, so it is
        /// committed with the change or not at all.
        @discardableResult
        package func append(
            upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, author: String? = nil,
            durable: Bool = true
        ) throws -> Int {
            try append(upsert: upsert, delete: delete, meta: meta, author: author, durable: durable, normalized: false)
        }

        /// ``append(upsert:delete:meta:author:durable:)`` for a caller that knows how the entry changes
        /// the number of live contacts (`liveCountChange`: +1 for a contact it checked is new, 0 for an
        /// update of one it found, −k for k distinct contacts it found and deletes): the entry's line
        /// then carries the live count when the writer knows the count before it, so
        /// ``JournaledStore/summary()`` reads that line instead of the journal (the app database's
        /// `add`, `update`, `delete` and imports; `status` and `signal` ask for its count).
        @discardableResult
        package func append(
            upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, author: String? = nil,
            durable: Bool = true, liveCountChange: Int
        ) throws -> Int {
            try append(
                upsert: upsert, delete: delete, meta: meta, author: author, durable: durable, normalized: false,
                liveCount: liveCount.map { $0 + liveCountChange })
        }

        /// `normalized`: the caller already put every identifier in NFC (each record copy costs).
        /// `liveCount`: how many contacts are live once the entry is applied, when the caller knows
        /// (it holds the store's state); written in the entry's line for ``JournaledStore/summary()``.
        ///
        /// `beforeWriting` hears the entry's length before it is written (a group commit may first
        /// wait for the bytes before it to be durable, ``JournalGroupCommit``).
        func append(
            upsert: [ContactRecord], delete: [String], meta: Meta?, author: String? = nil, durable: Bool = true,
            normalized: Bool, liveCount: Int? = nil, beforeWriting: ((_ length: Int) throws -> Void)? = nil
        ) throws -> Int {
            // Every identifier is stored in NFC (the identity rule, see IdentifierRules).
            let upsert = normalized ? upsert : upsert.map(IdentifierRules.normalized)
            let delete = normalized ? delete : delete.map(IdentifierRules.normalized)
            let line = try LineCoding.encodeEntryLine(
                seq: head + 1, liveCount: liveCount, author: author, upsert: upsert.isEmpty ? nil : upsert,
                delete: delete.isEmpty ? nil : delete, meta: meta)
            try beforeWriting?(line.count)
            try writeAtEnd(line)
            end += line.count
            head += 1
            self.liveCount = liveCount
            if durable { try sync() }
            return head
        }

        /// Writes `bytes` (whole lines) at the journal's end; on a failure the file is cut back to its
        /// old end, so no partial line is left behind for a reader to stumble on.
        private func writeAtEnd(_ bytes: Data) throws {
            try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var written = 0
                while written < buffer.count {
                    let n = pwrite(fd, buffer.baseAddress! + written, buffer.count - written, off_t(end + written))
                    if n < 0 {
                        if errno == EINTR { continue }
                        let code = errno
                        _ = ftruncate(fd, off_t(end))
                        throw StoreError.io(path: store.journalPath, operation: "write", errno: code)
                    }
                    written += n
                }
            }
        }

        /// Appends one entry per contact of `batch` (seqs `headSeq + 1`…) with one write and one
        /// `fdatasync` for all of them (group commit): a crash leaves a prefix of whole lines, as
        /// readers expect.
        ///
        /// The batch says of each contact whether it adds one or replaces a live one: each line then
        /// carries the live count, as ``append(upsert:delete:meta:author:durable:liveCountChange:)``'s do.
        /// A contact whose JSON the batch holds encoded is written as those bytes, the same line its
        /// record would make.
        package func appendEach(_ batch: borrowing ContactBatch) throws {
            guard batch.count > 0 else { return }
            let added = batch.added
            let batchStart = end
            let headAtStart = head
            let countAtStart = liveCount
            var chunkCount = liveCount
            // The journal's head before the chunk being written, read from `head` after each flush:
            // the loop reads no stored property of this class (a debug build checks exclusivity
            // dynamically on each such access, once per contact).
            var chunkHead = headAtStart
            var lines = Data()
            // A copied contact's line, written here first: one writer for every line, not one per line.
            var copiedLine = JSONWriter(capacity: 1024)
            var linesInChunk = 0
            // An index loop and plain conditions, not `enumerated()` and `flatMap`/`map` closures: a
            // debug build runs those generically, and an import writes every contact through here.
            // The count read once, `isRecord` asked before a record is, and no `??`: a debug build
            // calls each (and copies an optional record, its autoclosure) once per contact.
            let count = batch.count
            var index = 0
            while index < count {
                var lineCount: Int?  // the live count, when the journal's is known
                if let count = chunkCount { lineCount = added[index] ? count + 1 : count }
                let seq = chunkHead + linesInChunk + 1
                var recordLine: Data?
                let length: Int
                if batch.isRecord(at: index), let record = batch.record(at: index) {
                    let line = try LineCoding.encodeEntryLine(
                        seq: seq, liveCount: lineCount, upsert: [IdentifierRules.normalized(record)], delete: nil,
                        meta: Meta?.none)
                    recordLine = line
                    length = line.count
                } else {
                    copiedLine.removeAll()
                    JournalLineCodec.writeEntryLine(
                        seq: seq, liveCount: lineCount, contact: batch.json(at: index), to: &copiedLine)
                    length = copiedLine.count
                }
                // At most `JournalHoles.unsyncedLimit` bytes between two fdatasyncs (or one longer
                // line): a power cut's writeback hole can then only be where readers look for one.
                if !lines.isEmpty, lines.count + length > JournalHoles.unsyncedLimit {
                    try flush(
                        &lines, count: &linesInChunk, liveCount: chunkCount,
                        batchStart: (batchStart, headAtStart, countAtStart))
                    chunkHead = head
                }
                index += 1
                if let recordLine {
                    lines.append(recordLine)
                } else {
                    lines.append(copiedLine.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length)
                }
                linesInChunk += 1
                chunkCount = lineCount
            }
            try flush(
                &lines, count: &linesInChunk, liveCount: chunkCount, batchStart: (batchStart, headAtStart, countAtStart)
            )
        }

        /// ``appendEach(_:)``, noting in `written` where the batch's lines went (when it is recording
        /// and the batch notes its contacts), for the compaction that follows (``WrittenContactLines``).
        /// A batch that fails (taken back) abandons what was noted.
        package func appendEach(_ batch: borrowing ContactBatch, noting written: inout WrittenContactLines) throws {
            let start = end
            let firstSeq = head + 1
            do {
                try appendEach(batch)
            } catch {
                written.abandon()
                throw error
            }
            guard batch.notesContacts else { return written.abandon() }
            written.noteBatch(
                lines: batch.count, start: start, firstSeq: firstSeq, generation: header.generation, journalInode: inode
            )
        }

        /// Writes and syncs ``appendEach(_:)``'s chunk: `lines`, `count` whole lines, the last of which
        /// carries `liveCount`; then empties it. When that fails, takes the whole batch back (to
        /// `batchStart`: its end, head and live count before it) so the count of written contacts
        /// stays true.
        ///
        /// A method, not a function nested in `appendEach`: the locals such a function captures are
        /// checked for exclusivity dynamically in a debug build, on every access of the loop.
        private func flush(
            _ lines: inout Data, count: inout Int, liveCount chunkCount: Int?,
            batchStart: (end: Int, head: Int, liveCount: Int?)
        ) throws {
            guard !lines.isEmpty else { return }
            do {
                try writeAtEnd(lines)
                try SecureFile.sync(fd: fd, path: store.journalPath)
            } catch {
                // Not written or not durable: take the whole batch back.
                _ = ftruncate(fd, off_t(batchStart.end))
                end = batchStart.end
                head = batchStart.head
                liveCount = batchStart.liveCount
                // The batch's earlier chunks went too: a later cut-back must not reach past here.
                lastDurable = batchStart
                throw error
            }
            end += lines.count
            head += count
            liveCount = chunkCount
            lastDurable = (end, head, liveCount)
            CommitWitness.noteCommit()
            lines.removeAll(keepingCapacity: true)
            count = 0
        }

        /// Makes every appended entry durable; when that fails, cuts the journal back to where it was
        /// last durable before throwing.
        ///
        /// After a failed `fdatasync` the kernel may already count the lines' pages as clean (and drop
        /// them at the next power cut), yet every reader would see them, a retry would be refused as a
        /// duplicate, and later writes would build on them. So the lines are taken back: the error the
        /// caller reports is then true ("nothing was written"). The cut itself is synced when the disk
        /// allows; when even the cut fails, the error says so, and the journal's holes check still
        /// drops an unsynced tail at the next open after a power cut.
        package func sync() throws {
            do {
                try syncWithoutTakingBack(using: PendingSync.fdatasync)
            } catch {
                try cutBackToDurable(after: error)
            }
        }

        /// Makes every appended entry durable with `sync` (`fdatasync`, or a group commit's,
        /// ``JournalGroupCommit``), without taking anything back when that fails: ``sync()`` then cuts
        /// back to `lastDurable`, a group commit to where it last knew the journal durable.
        func syncWithoutTakingBack(using sync: PendingSync.SyncFunction) throws {
            if !Durability.isEphemeral(store.journalPath), sync(fd) != 0 {
                throw StoreError.io(path: store.journalPath, operation: "fdatasync", errno: errno)
            }
            lastDurable = (end, head, liveCount)
            CommitWitness.noteCommit()
        }

        /// Takes back every line after `end` (where a group commit last knew the journal durable, with
        /// `head` its seq), then rethrows `failure`.
        func takeBack(toEnd end: Int, head: Int, after failure: any Error) throws -> Never {
            lastDurable = (end, head, nil)
            try cutBackToDurable(after: failure)
        }

        /// Takes back every line since the last successful sync, then rethrows `failure`.
        private func cutBackToDurable(after failure: any Error) throws -> Never {
            guard ftruncate(fd, off_t(lastDurable.end)) == 0 else {
                let code = errno
                throw StoreError.io(
                    path: store.journalPath, operation: "fdatasync, then ftruncate to take the unsynced lines back",
                    errno: code)
            }
            end = lastDurable.end
            head = lastDurable.head
            liveCount = lastDurable.liveCount
            _ = fdatasync(fd)
            throw failure
        }

        /// Starts making every appended entry durable on another thread.
        func startSync(_ sync: @escaping PendingSync.SyncFunction) throws -> PendingSync {
            try PendingSync(fd: fd, path: store.journalPath, sync: sync)
        }

        func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}
