import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A durable store of contacts: an atomic snapshot plus an append-only journal, in one directory.
///
/// ```
/// <directory>/snapshot.jsonl   header line, then one contact per line sorted by identifier
/// <directory>/journal.jsonl    header line, then one committed change per line ({"seq":N,...})
/// <directory>/lock             flock: shared for readers, exclusive for writers
/// ```
///
/// - A write appends one line and `fdatasync`s it: O(1) in the size of the store.
/// - "What changed since (generation, seq)?" binary-searches the journal: O(log J + changes).
/// - A lookup by identifier binary-searches the sorted snapshot and scans the journal's matches.
/// - When the journal outgrows the snapshot, `compactIfNeeded()` folds it into a new snapshot with
///   a new generation; anchors that were up to date stay valid through `previousGeneration`.
/// - A torn last journal line (a crash mid-append) is ignored by readers and cut off by the next
///   writer. A journal whose header names another generation is dropped only when it is proven to be
///   left over from a crash between the two renames of a compaction or reset (see
///   `checkSuperseded`); anything else, like a missing or empty snapshot, is damage and refused.
public final class JournaledStore<Meta: Codable & Equatable & Sendable> {
    public let directory: String
    public var snapshotPath: String { directory + "/snapshot.jsonl" }
    public var journalPath: String { directory + "/journal.jsonl" }
    public var lockPath: String { directory + "/lock" }

    private var lockStorage: FileLock?
    /// The journal file as `changes(after:)` last read it, and its newest seq then.
    private var lastJournalEnd: (end: JournalEnd, headSeq: Int)?

    /// What identifies one state of the journal file without reading it.
    struct JournalEnd: Equatable {
        var generation: String
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int
        var changed: Int
        var changedNanoseconds: Int

        init(generation: String, info: stat) {
            self.generation = generation
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
            modified = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            changed = Int(info.st_ctim.tv_sec)
            changedNanoseconds = Int(info.st_ctim.tv_nsec)
        }
    }
    private var snapshotHeaderCache: (line: Data, header: SnapshotHeader<Meta>)?
    fileprivate var journalHeaderCache: (line: Data, header: JournalHeader)?
    /// False: states loaded or updated by this store keep only identifiers (placeholders with no
    /// values). The system engine needs to know which contacts exist, not what they hold, and so
    /// does not pay the memory of a second copy of the address book.
    public let retainsContacts: Bool
    /// True: loaded states keep snapshot contacts as byte ranges of the mapped snapshot and decode
    /// them on demand (a provider pages through them once); only journal values are held decoded.
    public let lazySnapshot: Bool
    /// False (with `retainsContacts` false): loaded states keep only the set of live identifiers,
    /// no positions, so they answer `contains` and `count` but cannot page (the system engine's case).
    public let keepsOrder: Bool

    /// A store in `directory` (created with mode 0700 on first write).
    public init(directory: String, retainsContacts: Bool = true, lazySnapshot: Bool = false, keepsOrder: Bool = true) {
        self.directory = directory
        self.retainsContacts = retainsContacts
        self.lazySnapshot = lazySnapshot
        self.keepsOrder = keepsOrder
    }

    private struct IdentifierOnly: Decodable {
        var identifier: String
    }

    private struct IdentifiersEntry: Decodable {
        var seq: Int
        var upsert: [IdentifierOnly]?
        var delete: [String]?
        var meta: Meta?
    }

    // The hand-written codecs answer the lines they fully understand; Foundation decodes the rest
    // (and reports its errors), so values and messages are Foundation's either way.
    func decodeRecord(_ decoder: JSONDecoder, _ file: MappedFile, _ range: Range<Int>, retain: Bool) throws
        -> ContactRecord
    {
        let slice = UnsafeRawBufferPointer(rebasing: file.bytes[range])
        if retain {
            if let record = ContactRecordCodec.fastDecode(slice) { return record }
            return try decoder.decode(ContactRecord.self, from: file.data(range))
        }
        if let identifier = ContactRecordCodec.fastIdentifier(slice) { return ContactRecord(identifier: identifier) }
        return ContactRecord(identifier: try decoder.decode(IdentifierOnly.self, from: file.data(range)).identifier)
    }

    func decodeEntry(_ decoder: JSONDecoder, _ file: MappedFile, _ range: Range<Int>, retain: Bool) throws
        -> JournalEntry<Meta>
    {
        let slice = UnsafeRawBufferPointer(rebasing: file.bytes[range])
        if let entry: JournalEntry<Meta> = JournalLineCodec.fastEntry(slice, identifiersOnly: !retain) { return entry }
        let data = file.data(range)
        if retain { return try decoder.decode(JournalEntry<Meta>.self, from: data) }
        let light = try decoder.decode(IdentifiersEntry.self, from: data)
        return JournalEntry(
            seq: light.seq, upsert: light.upsert?.map { ContactRecord(identifier: $0.identifier) }, delete: light.delete,
            meta: light.meta)
    }

    private func lock() throws -> FileLock {
        if let lockStorage { return lockStorage }
        try SecureFile.ensureDirectory(directory)
        let created = try FileLock(path: lockPath)
        lockStorage = created
        return created
    }

    func withLock<T>(_ mode: FileLock.Mode, _ body: () throws -> T) throws -> T {
        if mode == .shared, !FileManager.default.fileExists(atPath: directory) {
            return try body()
        }
        let lock: FileLock
        do {
            lock = try self.lock()
        } catch StoreError.io(_, _, let code) where code == EROFS && mode == .shared {
            // A read-only file system without a lock file (a read-only mount or backup): nobody can
            // write to it, so reading needs no lock.
            return try body()
        }
        return try lock.withLock(mode, body)
    }

    /// Runs `body` under the exclusive lock (for the repair tools, which must not race a writer).
    func withLockForRepair<T>(_ body: () throws -> T) throws -> T {
        try withLock(.exclusive, body)
    }

    // MARK: Reading

    /// Loads the whole store into memory.
    public func load() throws -> StoreState<Meta> {
        try withLock(.shared) { try loadUnlocked() }
    }

    /// Brings `state` up to date, reading only the journal lines appended since it was loaded.
    public func refresh(_ state: inout StoreState<Meta>) throws {
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
            guard let journal = try MappedFile.openIfPresent(journalPath), journal.inode == state.journalInode,
                journal.size >= state.journalOffset
            else {
                state = try loadUnlocked()
                return
            }
            try applyJournal(journal, from: state.journalOffset, firstLine: nil, to: &state)
        }
    }

    /// Loads the store; `retain` false keeps identifiers only (compaction always needs values).
    func loadUnlocked(retain: Bool? = nil) throws -> StoreState<Meta> {
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
        var offset = headerEnd
        var lineNumber = 1
        var previous: String?
        var lines = 0
        while offset < snapshot.size {
            lineNumber += 1
            guard let end = snapshot.newline(from: offset) else {
                throw StoreError.malformed(path: snapshotPath, line: lineNumber, reason: "truncated line (no newline)")
            }
            let lazy = retain && lazySnapshot
            let record: ContactRecord
            do {
                // Lazy: parse the line (so a malformed one is reported now) but keep only its range.
                record = try decodeRecord(decoder, snapshot, offset..<end, retain: retain && !lazy)
            } catch {
                throw StoreError.malformed(path: snapshotPath, line: lineNumber, reason: LineCoding.reason(error))
            }
            if state.contains(record.identifier) {
                throw StoreError.malformed(
                    path: snapshotPath, line: lineNumber, reason: "duplicate identifier '\(record.identifier)'")
            }
            // Lookups binary-search the snapshot: an unsorted one would answer them wrongly without a word.
            if let previous, !IdentifierOrder.precedes(previous, record.identifier) {
                throw StoreError.malformed(
                    path: snapshotPath, line: lineNumber,
                    reason: "identifier '\(record.identifier)' is out of order (after '\(previous)')")
            }
            previous = record.identifier
            lines += 1
            if state.membersOnly {
                state.members.insert(record.identifier)
                offset = end + 1
                continue
            }
            state.positions[record.identifier] = state.order.count
            state.order.append(record.identifier)
            if !retain {
                state.snapshotLines[record.identifier] = 0..<0
            } else if lazy {
                state.snapshotLines[record.identifier] = offset..<end
                state.snapshotFile = snapshot
            } else {
                state.records[record.identifier] = record
            }
            offset = end + 1
        }
        if lines != header.count {
            throw StoreError.malformed(
                path: snapshotPath, line: lineNumber,
                reason: "header says \(header.count) contacts but the file holds \(lines)")
        }
        if let journal = try MappedFile.openIfPresent(journalPath) {
            state.journalInode = journal.inode
            if let journalHeaderEnd = try journalHeaderEnd(journal, snapshot: header) {
                try applyJournal(journal, from: journalHeaderEnd, firstLine: 2, to: &state, retain: retain)
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
        var offset = start
        // The line number is only needed for an error; counting lines up to `start` would make every
        // refresh O(journal) instead of O(new lines).
        var lineNumber = firstLine
        while offset < journal.size, let end = journal.newline(from: offset) {
            let entry: JournalEntry<Meta>
            do {
                entry = try decodeEntry(decoder, journal, offset..<end, retain: retain)
            } catch {
                throw StoreError.malformed(
                    path: journalPath, line: lineNumber ?? countLines(journal, upTo: offset) + 1,
                    reason: LineCoding.reason(error))
            }
            guard entry.seq == state.headSeq + 1 else {
                throw StoreError.malformed(
                    path: journalPath, line: lineNumber ?? countLines(journal, upTo: offset) + 1,
                    reason: "sequence number \(entry.seq) does not follow \(state.headSeq)")
            }
            state.apply(entry)
            offset = end + 1
            lineNumber = lineNumber.map { $0 + 1 }
        }
        state.journalInode = journal.inode
        state.journalOffset = offset
    }

    func countLines(_ file: MappedFile, upTo offset: Int) -> Int {
        var count = 0
        var index = 0
        while index < offset, let end = file.newline(from: index), end < offset {
            count += 1
            index = end + 1
        }
        return count
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
            header = try JSONDecoder().decode(SnapshotHeader<Meta>.self, from: snapshot.data(0..<end))
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
            throw StoreError.malformed(path: snapshotPath, line: 1, reason: "kind is '\(header.kind)', expected 'snapshot'")
        }
        return (header, end + 1)
    }

    private struct FormatProbe: Decodable {
        var format: Int
    }

    /// The snapshot's header alone (one small read).
    public func readSnapshotHeader() throws -> SnapshotHeader<Meta>? {
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
                header = try JSONDecoder().decode(JournalHeader.self, from: line)
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

    /// The contact with `identifier`, without loading the store: O(log N + journal matches).
    public func lookup(_ identifier: String) throws -> ContactRecord? {
        try withLock(.shared) { try lookupUnlocked(identifier) }
    }

    private func lookupUnlocked(_ identifier: String) throws -> ContactRecord? {
        // Stored identifiers are NFC (see IdentifierRules): search for the same bytes.
        let identifier = IdentifierRules.normalized(identifier)
        guard let snapshot = try openSnapshot() else { return nil }
        let (header, headerEnd) = try parseHeader(snapshot)
        var found = try binarySearchSnapshot(snapshot, from: headerEnd, for: identifier)
        if let journal = try MappedFile.openIfPresent(journalPath),
            let start = try journalHeaderEnd(journal, snapshot: header)
        {
            // Encoded exactly as the journal lines are (no escaped slashes), or "a/b" would never match.
            let needle = Array(try LineCoding.encoder().encode(identifier))
            let decoder = JSONDecoder()
            var offset = start
            var lineNumber = 2
            while offset < journal.size, let end = journal.newline(from: offset) {
                if contains(journal.bytes, range: offset..<end, needle: needle) {
                    let entry: JournalEntry<Meta>
                    do {
                        entry = try decodeEntry(decoder, journal, offset..<end, retain: true)
                    } catch {
                        throw StoreError.malformed(path: journalPath, line: lineNumber, reason: LineCoding.reason(error))
                    }
                    if let record = entry.upsert?.last(where: { $0.identifier == identifier }) { found = record }
                    if entry.delete?.contains(identifier) == true { found = nil }
                }
                offset = end + 1
                lineNumber += 1
            }
        }
        return found
    }

    private func contains(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, needle: [UInt8]) -> Bool {
        guard range.count >= needle.count, let base = bytes.baseAddress else { return false }
        return ByteSearch.contains(base + range.lowerBound, count: range.count, needle: needle)
    }

    func binarySearchSnapshot(_ snapshot: MappedFile, from headerEnd: Int, for identifier: String) throws
        -> ContactRecord?
    {
        let decoder = JSONDecoder()
        var low = headerEnd
        var high = snapshot.size
        while low < high {
            let middle = low + (high - low) / 2
            let start = snapshot.lineStart(containing: middle, floor: low)
            guard let end = snapshot.newline(from: start) else {
                throw StoreError.malformed(
                    path: snapshotPath, line: countLines(snapshot, upTo: start) + 1, reason: "truncated line (no newline)")
            }
            let record: ContactRecord
            do {
                record = try decodeRecord(decoder, snapshot, start..<end, retain: true)
            } catch {
                throw StoreError.malformed(
                    path: snapshotPath, line: countLines(snapshot, upTo: start) + 1, reason: LineCoding.reason(error))
            }
            if record.identifier == identifier { return record }
            if IdentifierOrder.precedes(record.identifier, identifier) {
                low = end + 1
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
    public func changes(after seq: Int, in generation: String, limit: Int) throws -> ChangeWindow<Meta> {
        try withLock(.shared) {
            guard let header = try readSnapshotHeader() else {
                return .expired(reason: "the store is empty and has no generation")
            }
            guard generation == header.generation || generation == header.previousGeneration else {
                return .expired(reason: "generation \(generation) is no longer known")
            }
            guard seq >= header.baseSeq else {
                return .expired(reason: "changes after \(seq) were compacted into the snapshot at \(header.baseSeq)")
            }
            // Asked again for the changes after the head of an unchanged journal (an idle signal):
            // the answer is known without mapping the journal.
            var info = stat()
            let known = stat(journalPath, &info) == 0
                ? JournalEnd(generation: header.generation, info: info) : nil
            if let known, let cached = lastJournalEnd, cached.end == known, seq == cached.headSeq {
                return .changes([], headSeq: seq, generation: header.generation)
            }
            guard let journal = try MappedFile.openIfPresent(journalPath),
                let start = try journalHeaderEnd(journal, snapshot: header)
            else {
                if seq == header.baseSeq { return .changes([], headSeq: seq, generation: header.generation) }
                return .expired(reason: "seq \(seq) is beyond the newest change \(header.baseSeq)")
            }
            // Entries are contiguous: the entry with seq s is line (s - baseSeq + 1).
            let wanted = seq + 1
            var offset = try findEntry(journal, from: start, seq: wanted, baseSeq: header.baseSeq)
            var entries: [JournalEntry<Meta>] = []
            let decoder = JSONDecoder()
            while let at = offset, at < journal.size, let end = journal.newline(from: at) {
                let entry: JournalEntry<Meta>
                do {
                    entry = try decodeEntry(decoder, journal, at..<end, retain: true)
                } catch {
                    throw StoreError.malformed(
                        path: journalPath, line: countLines(journal, upTo: at) + 1, reason: LineCoding.reason(error))
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
    private func findEntry(_ journal: MappedFile, from start: Int, seq: Int, baseSeq: Int) throws -> Int? {
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

    private func seqOf(_ journal: MappedFile, _ range: Range<Int>) throws -> Int {
        let data = journal.data(range)
        do {
            return try LineCoding.seq(of: data[...])
        } catch {
            throw StoreError.malformed(
                path: journalPath, line: countLines(journal, upTo: range.lowerBound) + 1,
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

    // MARK: Writing

    /// Exclusive access for read-check-write sequences (e.g. "update only if it exists").
    public func write<T>(_ body: (Writer) throws -> T) throws -> T {
        try withLock(.exclusive) {
            let writer = try Writer(store: self)
            defer { writer.close() }
            return try body(writer)
        }
    }

    /// Appends one entry; returns its seq.
    @discardableResult
    public func append(upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil) throws -> Int {
        try write { try $0.append(upsert: upsert, delete: delete, meta: meta) }
    }

    /// Appends one entry and applies it to `state`, which must be this store's current state.
    ///
    /// - Returns: false (writing nothing) when the store's generation is no longer `state`'s:
    ///   someone reset it meanwhile, and the caller's view is stale.
    public func append(
        upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, to state: inout StoreState<Meta>
    ) throws -> Bool {
        try withLock(.exclusive) {
            let known = Writer.KnownEnd(
                generation: state.generation, inode: state.journalInode, offset: state.journalOffset, headSeq: state.headSeq)
            let writer = try Writer(store: self, known: known)
            defer { writer.close() }
            guard writer.generation == state.generation else { return false }
            // Mapping copies every record (a retain per field): only when an identifier needs it.
            let upsert = upsert.allSatisfy { Self.isASCII($0.identifier) } ? upsert : upsert.map(IdentifierRules.normalized)
            let delete = delete.map(IdentifierRules.normalized)
            if writer.headSeq != state.headSeq {
                try applyJournalUnlocked(to: &state)
            }
            let seq = try writer.append(upsert: upsert, delete: delete, meta: meta, normalized: true)
            if state.membersOnly {
                state.apply(seq: seq, upserted: upsert, deleted: delete, meta: meta)
            } else {
                let kept = retainsContacts ? upsert : upsert.map { ContactRecord(identifier: $0.identifier) }
                state.apply(
                    JournalEntry(seq: seq, upsert: kept.isEmpty ? nil : kept, delete: delete.isEmpty ? nil : delete, meta: meta))
            }
            state.journalOffset = writer.endOffset
            state.journalInode = writer.inode
            return true
        }
    }

    /// ASCII identifiers are already in NFC.
    private static func isASCII(_ identifier: String) -> Bool {
        identifier.utf8.allSatisfy { $0 < 0x80 }
    }

    private func applyJournalUnlocked(to state: inout StoreState<Meta>) throws {
        guard let journal = try MappedFile.openIfPresent(journalPath), journal.inode == state.journalInode,
            journal.size >= state.journalOffset
        else {
            state = try loadUnlocked()
            return
        }
        try applyJournal(journal, from: state.journalOffset, firstLine: nil, to: &state)
    }

    /// Empties the store and starts a new generation that forgets all history.
    @discardableResult
    public func reset(meta: Meta? = nil) throws -> String {
        try withLock(.exclusive) {
            let replaced = try readSnapshotHeader()?.generation
            let head = try currentHeadUnlocked()
            let generation = UUID().uuidString
            try writeSnapshot(
                generation: generation, previousGeneration: nil, replacedGeneration: replaced, baseSeq: head, records: [],
                meta: meta)
            try writeEmptyJournal(generation: generation, baseSeq: head)
            return generation
        }
    }

    /// Replaces the whole store with `records` in one atomic snapshot (a new generation that
    /// forgets history): the fast path for loading a large address book at once.
    @discardableResult
    public func replaceAll(with records: [ContactRecord], meta: Meta? = nil) throws -> String {
        try withLock(.exclusive) {
            let replaced = try readSnapshotHeader()?.generation
            let head = try currentHeadUnlocked()
            let generation = UUID().uuidString
            var unique: [String: ContactRecord] = [:]
            for record in records.lazy.map(IdentifierRules.normalized) { unique[record.identifier] = record }
            let sorted = unique.values.sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
            try writeSnapshot(
                generation: generation, previousGeneration: nil, replacedGeneration: replaced, baseSeq: head,
                records: sorted, meta: meta)
            try writeEmptyJournal(generation: generation, baseSeq: head)
            return generation
        }
    }

    /// Compacts when the journal has grown past the snapshot (and past `minimumJournalBytes`).
    @discardableResult
    public func compactIfNeeded(minimumJournalBytes: Int = 256 * 1024) throws -> Bool {
        var snapshotInfo = stat()
        var journalInfo = stat()
        guard stat(journalPath, &journalInfo) == 0 else { return false }
        let snapshotSize = stat(snapshotPath, &snapshotInfo) == 0 ? Int(snapshotInfo.st_size) : 0
        let journalSize = Int(journalInfo.st_size)
        guard journalSize > max(snapshotSize, minimumJournalBytes) else { return false }
        MemoryTrim.returnFreeMemory()
        try compact()
        MemoryTrim.returnFreeMemory()
        return true
    }

    /// Where a contact's line comes from when compaction writes the new snapshot.
    private enum CompactedLine {
        case snapshot(Range<Int>)
        case journal(Range<Int>)
        case encoded(Data)
    }

    /// Folds the journal into a new snapshot with a new generation (anchors at the head stay valid).
    ///
    /// It keeps each contact as the byte range of its JSON in the snapshot or the journal, not as a
    /// decoded value, and streams the new snapshot to disk: memory stays near the number of
    /// contacts, not the size of the decoded address book, and contacts are copied, not re-encoded.
    public func compact() throws {
        try withLock(.exclusive) {
            guard let snapshot = try openSnapshot() else { return }
            let (header, headerEnd) = try parseHeader(snapshot)
            let encoder = LineCoding.encoder()
            let decoder = JSONDecoder()
            var lines: [String: CompactedLine] = [:]
            lines.reserveCapacity(header.count)
            var offset = headerEnd
            var lineNumber = 1
            while offset < snapshot.size, let end = snapshot.newline(from: offset) {
                lineNumber += 1
                if lineNumber % 65536 == 0 { snapshot.dropResidentPages() }
                do {
                    let identifier = try decodeRecord(decoder, snapshot, offset..<end, retain: false).identifier
                    lines[identifier] = .snapshot(offset..<end)
                } catch {
                    throw StoreError.malformed(path: snapshotPath, line: lineNumber, reason: LineCoding.reason(error))
                }
                offset = end + 1
            }
            var headSeq = header.baseSeq
            var meta = header.meta
            let journal = try MappedFile.openIfPresent(journalPath)
            if let journal, let start = try journalHeaderEnd(journal, snapshot: header) {
                var position = start
                var dropped = start
                while position < journal.size, let end = journal.newline(from: position) {
                    if position - dropped > 16 << 20 {
                        journal.dropResidentPages()
                        dropped = position
                    }
                    let seq: Int
                    let line = UnsafeRawBufferPointer(rebasing: journal.bytes[position..<end])
                    if let ranges = JournalLineCodec.fastRanges(line, metaType: Meta.self) {
                        seq = ranges.seq
                        guard seq == headSeq + 1 else {
                            throw StoreError.malformed(
                                path: journalPath, line: countLines(journal, upTo: position) + 1,
                                reason: "sequence number \(seq) does not follow \(headSeq)")
                        }
                        for item in ranges.upsert {
                            lines[item.identifier] = .journal((position + item.range.lowerBound)..<(position + item.range.upperBound))
                        }
                        for identifier in ranges.delete { lines[identifier] = nil }
                        if let entryMeta = ranges.meta { meta = entryMeta }
                    } else {
                        let entry: JournalEntry<Meta>
                        do {
                            entry = try decoder.decode(JournalEntry<Meta>.self, from: journal.data(position..<end))
                        } catch {
                            throw StoreError.malformed(
                                path: journalPath, line: countLines(journal, upTo: position) + 1,
                                reason: LineCoding.reason(error))
                        }
                        seq = entry.seq
                        guard seq == headSeq + 1 else {
                            throw StoreError.malformed(
                                path: journalPath, line: countLines(journal, upTo: position) + 1,
                                reason: "sequence number \(seq) does not follow \(headSeq)")
                        }
                        for record in entry.upsert ?? [] { lines[record.identifier] = .encoded(try ContactRecordCodec.encode(record)) }
                        for identifier in entry.delete ?? [] { lines[identifier] = nil }
                        if let entryMeta = entry.meta { meta = entryMeta }
                    }
                    headSeq = seq
                    position = end + 1
                }
            }
            let generation = UUID().uuidString
            let identifiers = lines.keys.sorted(by: IdentifierOrder.precedes)
            let newHeader = SnapshotHeader(
                format: StoreFormat.version, kind: "snapshot", generation: generation,
                previousGeneration: header.generation, baseSeq: headSeq, count: identifiers.count, meta: meta)
            SecureFile.sweepTemporaryFiles(in: directory)
            try SecureFile.replace(snapshotPath) { fd, temp in
                var buffer = try encoder.encode(newHeader)
                buffer.append(UInt8(ascii: "\n"))
                var written = 0
                for identifier in identifiers {
                    switch lines[identifier]! {
                    case .snapshot(let range): snapshot.append(range, to: &buffer)
                    case .journal(let range): journal?.append(range, to: &buffer)
                    case .encoded(let data): buffer.append(data)
                    }
                    buffer.append(UInt8(ascii: "\n"))
                    if buffer.count > 1 << 20 {
                        try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
                        buffer.removeAll(keepingCapacity: true)
                        written += 1
                        // Contacts are copied in identifier order, mostly sequential in both files.
                        if written % 16 == 0 {
                            snapshot.dropResidentPages()
                            journal?.dropResidentPages()
                        }
                    }
                }
                try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
            }
            try writeEmptyJournal(generation: generation, baseSeq: headSeq)
        }
    }

    private func currentHeadUnlocked() throws -> Int {
        guard let header = try readSnapshotHeader() else { return 0 }
        guard let journal = try MappedFile.openIfPresent(journalPath),
            let start = try journalHeaderEnd(journal, snapshot: header)
        else { return header.baseSeq }
        return try headSeq(journal, start: start, baseSeq: header.baseSeq)
    }

    func writeSnapshot(
        generation: String, previousGeneration: String?, replacedGeneration: String? = nil, baseSeq: Int,
        records: [ContactRecord], meta: Meta?
    ) throws {
        try SecureFile.ensureDirectory(directory)
        SecureFile.sweepTemporaryFiles(in: directory)
        let header = SnapshotHeader(
            format: StoreFormat.version, kind: "snapshot", generation: generation,
            previousGeneration: previousGeneration, replacedGeneration: replacedGeneration, baseSeq: baseSeq,
            count: records.count, meta: meta)
        var bytes = [UInt8](try LineCoding.encoder().encode(header))
        bytes.append(UInt8(ascii: "\n"))
        bytes.reserveCapacity(bytes.count + records.count * 200)
        for record in records {
            try ContactRecordCodec.encode(record, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        try SecureFile.replace(snapshotPath, with: Data(bytes))
    }

    func writeEmptyJournal(generation: String, baseSeq: Int) throws {
        let header = JournalHeader(format: StoreFormat.version, kind: "journal", generation: generation, baseSeq: baseSeq)
        try SecureFile.replace(journalPath, with: try LineCoding.encodeLine(header))
    }

    /// Appends to the journal while the exclusive lock is held.
    public final class Writer {
        private let store: JournaledStore
        private var header: SnapshotHeader<Meta>
        private var fd: Int32 = -1
        private var head: Int
        private var end: Int

        /// What a caller with an up-to-date state already knows about the journal's end.
        struct KnownEnd {
            var generation: String
            var inode: UInt64
            var offset: Int
            var headSeq: Int
        }

        fileprivate init(store: JournaledStore, known: KnownEnd? = nil) throws {
            self.store = store
            if let existing = try store.readSnapshotHeader() {
                header = existing
            } else {
                let generation = UUID().uuidString
                try store.writeSnapshot(generation: generation, previousGeneration: nil, baseSeq: 0, records: [], meta: nil)
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
                return
            }
            // A journal of another generation is rewritten below only once proven superseded.
            if let journal = try MappedFile.openIfPresent(store.journalPath) {
                _ = try store.journalHeaderEnd(journal, snapshot: header)
            }
            try openJournal()
        }

        /// The store's generation.
        public var generation: String { header.generation }
        /// The seq of the newest committed entry.
        public var headSeq: Int { head }
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
            let size = Int(info.st_size)
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
                    parsed = try JSONDecoder().decode(JournalHeader.self, from: headerData[..<newline])
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
                return
            }
            // Find the last complete line; cut off a torn tail left by a crash.
            var chunk = 4096
            while true {
                let from = max(headerEnd, size - chunk)
                let tail = try SecureFile.read(fd: fd, path: path, offset: from, count: size - from)
                guard let lastNewline = tail.lastIndex(of: 0x0A) else {
                    if from == headerEnd {
                        try truncate(to: headerEnd)
                        head = header.baseSeq
                        end = headerEnd
                        return
                    }
                    chunk *= 4
                    continue
                }
                let completeEnd = from + (lastNewline - tail.startIndex) + 1
                let lineData = tail[tail.startIndex..<lastNewline]
                let lastLine: Data.SubSequence
                let lastLineStart: Int
                if let previousNewline = lineData.lastIndex(of: 0x0A) {
                    lastLine = lineData[(previousNewline + 1)...]
                    lastLineStart = from + (previousNewline + 1 - tail.startIndex)
                } else if from == headerEnd {
                    lastLine = lineData
                    lastLineStart = headerEnd
                } else {
                    chunk *= 4
                    continue
                }
                // Check the last complete line before cutting anything off: a damaged journal stays as it was.
                head = try lastSeq(lastLine, startingAt: lastLineStart)
                if completeEnd < size { try truncate(to: completeEnd) }
                end = completeEnd
                return
            }
        }

        /// The seq of the last complete line, which must be a whole, readable entry: appending after a
        /// line that readers reject would only bury the damage (and the file must stay as it was).
        private func lastSeq(_ line: Data.SubSequence, startingAt lineStart: Int) throws -> Int {
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
            guard let parsed = try? JSONDecoder().decode(JournalHeader.self, from: line) else { return nil }
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
        public func lookup(_ identifier: String) throws -> ContactRecord? {
            try store.lookupUnlocked(identifier)
        }

        /// Which contacts exist (identifiers only, read under the held lock): O(store) once, for
        /// checks over many identifiers.
        public func identifiers() throws -> StoreState<Meta> {
            try store.loadUnlocked(retain: false)
        }

        /// Appends one entry with seq `headSeq + 1`; with `durable` (the default) it is on disk
        /// before this returns. Bulk writers pass false and call `sync()` once at the end (group commit).
        @discardableResult
        public func append(
            upsert: [ContactRecord] = [], delete: [String] = [], meta: Meta? = nil, durable: Bool = true
        ) throws -> Int {
            try append(upsert: upsert, delete: delete, meta: meta, durable: durable, normalized: false)
        }

        /// `normalized`: the caller already put every identifier in NFC (each record copy costs).
        func append(
            upsert: [ContactRecord], delete: [String], meta: Meta?, durable: Bool = true, normalized: Bool
        ) throws -> Int {
            // Every identifier is stored in NFC (the identity rule, see IdentifierRules).
            let upsert = normalized ? upsert : upsert.map(IdentifierRules.normalized)
            let delete = normalized ? delete : delete.map(IdentifierRules.normalized)
            let line = try LineCoding.encodeEntryLine(
                seq: head + 1, upsert: upsert.isEmpty ? nil : upsert, delete: delete.isEmpty ? nil : delete, meta: meta)
            try line.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var written = 0
                while written < buffer.count {
                    let n = pwrite(fd, buffer.baseAddress! + written, buffer.count - written, off_t(end + written))
                    if n < 0 {
                        if errno == EINTR { continue }
                        let code = errno
                        // Leave no partial line behind for a reader to stumble on.
                        _ = ftruncate(fd, off_t(end))
                        throw StoreError.io(path: store.journalPath, operation: "write", errno: code)
                    }
                    written += n
                }
            }
            if durable { try SecureFile.sync(fd: fd, path: store.journalPath) }
            end += line.count
            head += 1
            return head
        }

        /// Appends one entry per record (seqs `headSeq + 1`…) with one write and one `fdatasync` for
        /// all of them (group commit): a crash leaves a prefix of whole lines, as readers expect.
        public func appendEach(_ records: [ContactRecord]) throws {
            guard !records.isEmpty else { return }
            var lines = Data()
            for (index, record) in records.enumerated() {
                lines.append(try LineCoding.encodeEntryLine(
                    seq: head + 1 + index, upsert: [IdentifierRules.normalized(record)], delete: nil, meta: Meta?.none))
            }
            try lines.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
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
            do {
                try SecureFile.sync(fd: fd, path: store.journalPath)
            } catch {
                // Not durable: take the batch back so the count of written contacts stays true.
                _ = ftruncate(fd, off_t(end))
                throw error
            }
            end += lines.count
            head += records.count
        }

        /// Makes every appended entry durable.
        public func sync() throws {
            try SecureFile.sync(fd: fd, path: store.journalPath)
        }

        fileprivate func close() {
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}

/// The order of identifiers in a snapshot: bytewise on UTF-8, so every process agrees.
public enum IdentifierOrder {
    public static func precedes(_ a: String, _ b: String) -> Bool {
        // memcmp on the UTF-8 bytes: sorting a million identifiers (compaction, import) spent most
        // of its time in the generic element-by-element comparison.
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let left = x.baseAddress, let right = y.baseAddress {
                    let order = memcmp(left, right, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }
}
