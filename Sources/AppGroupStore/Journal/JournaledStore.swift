import Foundation
import Glibc

/// The files of a ``JournaledStore``'s directory, named without the generic store: making one costs
/// a protocol conformance lookup the first time (a tenth of a millisecond), and a caller that only
/// stats the files (`signal --wait` watching for commits) need not pay it (issue 27).
package enum JournalFiles {
    /// `<directory>/snapshot.jsonl`.
    package static func snapshot(in directory: String) -> String { directory + "/snapshot.jsonl" }
    /// `<directory>/journal.jsonl`.
    package static func journal(in directory: String) -> String { directory + "/journal.jsonl" }
}

/// A durable store of contacts: an atomic snapshot plus an append-only journal, in one directory.
///
/// ```
/// <directory>/snapshot.jsonl   header line, then one contact per line sorted by identifier
/// <directory>/journal.jsonl    header line, then one committed change per line ({"seq":N,...})
/// <directory>/lock             flock: exclusive for writers; shared for readers when it is free
///                              (a reader never waits: when a writer holds it, it reads without it)
/// ```
///
/// - A write appends one line and `fdatasync`s it: O(1) in the size of the store.
/// - "What changed since (generation, seq)?" binary-searches the journal: O(log J + changes).
/// - A lookup by identifier binary-searches the sorted snapshot and scans the journal's matches.
/// - When the journal outgrows the snapshot, `compactIfNeeded()` folds it into a new snapshot with
///   a new generation; anchors that were up to date stay valid through `previousGeneration`, and a
///   store that keeps the folded journal (`retainsPreviousJournal`) still answers anchors behind it.
/// - A torn last journal line (a crash mid-append) is ignored by readers and cut off by the next
///   writer. A journal whose header names another generation is dropped only when it is proven to be
///   left over from a crash between the two renames of a compaction or reset (see
///   `checkSuperseded`); anything else, like a missing or empty snapshot, is damage and refused.
package final class JournaledStore<Meta: Codable & Equatable & Sendable> {
    package let directory: String
    package var snapshotPath: String { JournalFiles.snapshot(in: directory) }
    package var journalPath: String { JournalFiles.journal(in: directory) }
    package var lockPath: String { directory + "/lock" }

    private var lockStorage: FileLock?
    /// How many times this store was read whole (every snapshot line): what a refresh that finds the
    /// files it knows avoids, and tests count.
    package internal(set) var fullLoads = 0
    /// The journal file as `changes(after:)` last read it, and its newest seq then.
    var lastJournalEnd: (end: JournalEnd, headSeq: Int)?

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
    /// True while a shared read runs without the lock (see ``readWithoutLock(_:)``): journals are
    /// then read, never mapped.
    var readsWithoutLock = false
    /// Called by a read without the lock each time it is about to open the journal, the snapshot
    /// already open: the seam where tests put a compaction, a reset or an append by hand.
    package var beforeOpeningJournalWithoutLock: (() -> Void)?
    /// Called by a read without the lock once it has opened the journal, before it reads its lines:
    /// where tests cut the journal back in place under the reader.
    package var afterOpeningJournalWithoutLock: (() -> Void)?
    /// Called by a compaction, reset or replacement right after it renamed its new snapshot in, its
    /// journal not yet: where tests read the store, or copy its files, as a crash there leaves them.
    package var afterReplacingSnapshot: (() -> Void)?
    var snapshotHeaderCache: (line: Data, header: SnapshotHeader<Meta>)?
    var journalHeaderCache: (line: Data, header: JournalHeader)?
    /// False: states loaded or updated by this store keep only identifiers (placeholders with no
    /// values). The system engine needs to know which contacts exist, not what they hold, and so
    /// does not pay the memory of a second copy of the address book.
    package let retainsContacts: Bool
    /// True: loaded states keep snapshot contacts as byte ranges of the mapped snapshot and decode
    /// them on demand (a provider pages through them once); only journal values are held decoded.
    package let lazySnapshot: Bool
    /// False (with `retainsContacts` false): loaded states keep only the set of live identifiers,
    /// no positions, so they answer `contains` and `count` but cannot page (the system engine's case).
    package let keepsOrder: Bool
    /// The search indexes derived from this store's snapshot (their key functions live above this
    /// module, so the opener names them): every snapshot this store writes (a compaction,
    /// `replaceAll`, `reset`) gets them written for it in the same pass, so the first search after
    /// it needs no rebuild. An index not named here is rebuilt by the first search after a new snapshot.
    package let derivedIndexes: [SearchIndex]
    /// True: a compaction keeps the journal it folds (``previousJournalPath``), so the changes after
    /// an anchor behind it are still answered (the app database, whose anchors providers hold). The
    /// system store's journal is read by nobody's anchor, and keeps no history.
    package let retainsPreviousJournal: Bool

    /// A store in `directory` (created with mode 0700 on first write) that keeps `derivedIndexes`
    /// current whenever it writes a snapshot.
    package init(
        directory: String, retainsContacts: Bool = true, lazySnapshot: Bool = false, keepsOrder: Bool = true,
        derivedIndexes: [SearchIndex] = [], retainsPreviousJournal: Bool = false
    ) {
        self.directory = directory
        self.retainsPreviousJournal = retainsPreviousJournal
        self.retainsContacts = retainsContacts
        self.lazySnapshot = lazySnapshot
        self.keepsOrder = keepsOrder
        self.derivedIndexes = derivedIndexes
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
            seq: light.seq, upsert: light.upsert?.map { ContactRecord(identifier: $0.identifier) },
            delete: light.delete,
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
        // Readers never wait (issue 44, item 1): a shared read that finds the lock taken reads the
        // last committed state without it; writers still serialise on the exclusive lock.
        if mode == .shared { return try readShared(lock, body) }
        return try lock.withLock(mode, body)
    }

    /// Runs `body` under the exclusive lock (for the repair tools, which must not race a writer).
    func withLockForRepair<T>(_ body: () throws -> T) throws -> T {
        try withLock(.exclusive, body)
    }
}
