import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 44, item 1: a read finds the lock taken and reads without it; these drive by hand every
/// interleaving of such a read with a compaction, a reset, an append and a take-back, at the one
/// point where they can meet it: the snapshot is open, the journal not yet
/// (`beforeOpeningJournalWithoutLock`).
@Suite("JournaledStore: a read without the lock races compactions, resets and appends")
struct LockFreeReadTests {
    /// A database with `count` contacts in its snapshot and one journal line per contact changed after.
    /// Writes `records` as one entry through a group commit whose `fdatasync` fails: the entry is
    /// readable at once, and the returned group's `finish(in:)` takes it back in place, as the
    /// system engine does when a page's overlapped `fdatasync` fails.
    private func appendWithFailingSync<Meta>(
        _ records: [ContactRecord], to store: JournaledStore<Meta>
    ) throws -> JournalGroupCommit {
        let group = JournalGroupCommit(sync: { _ in
            errno = EIO
            return -1
        })
        var state = try store.load()
        #expect(try store.append(upsert: records, to: &state, groupCommit: group, durableNow: false))
        return group
    }

    private func database(_ group: TemporaryAppGroup, count: Int = 20) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        try database.replaceAll(with: (0..<count).map { StoreFixtures.contact(String(format: "c%03d", $0)) })
        for index in stride(from: 0, to: count, by: 5) {
            try database.update(String(format: "c%03d", index)) { $0.note = "changed" }
        }
        try database.add(StoreFixtures.contact("journal-only"))
        return database
    }

    /// Another descriptor's exclusive lock on `store`'s lock file, as a writer in another process
    /// holds it: the store's own reads then go without the lock. `released` runs `body` with it
    /// given up, as the other process would between its steps.
    private final class HeldLock {
        let lock: FileLock
        init(_ path: String) throws {
            lock = try FileLock(path: path)
            guard try lock.tryLock(.exclusive) else { throw Refused() }
        }
        func released(_ body: () throws -> Void) rethrows {
            lock.unlock()
            defer { _ = try? lock.tryLock(.exclusive) }
            try body()
        }
        struct Refused: Error {}
    }

    private func summary(_ contacts: [ContactRecord]) -> [String: String?] {
        Dictionary(uniqueKeysWithValues: contacts.map { ($0.identifier, $0.note) })
    }

    @Test("with the lock held, every kind of read answers at once from the committed files")
    func heldLockReads() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let expected = summary(try database.all())
            let held = try HeldLock(database.store.lockPath)
            var opened = 0
            database.store.beforeOpeningJournalWithoutLock = { opened += 1 }
            defer { withExtendedLifetime(held) {} }  // held until the reads are done
            #expect(summary(try database.all()) == expected)
            #expect(try database.get("journal-only") != nil)
            #expect(try database.get("c005")?.note == "changed")
            #expect(try database.store.summary().count == 21)
            // The summary answers from the journal's last line, which carries the live count (the app
            // database writes it): it reads the header and the tail itself, not through that open.
            #expect(opened == 3, "each read of the contacts went without the lock, once")
        }
    }

    @Test("with the lock held and a last line without a count, the summary counts in full without the lock")
    func heldLockFullCount() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            // A writer without the store's state (a raw append) writes no live count: the summary
            // must look each journal identifier up in the snapshot, reading the journal lock-free.
            try database.store.append(upsert: [StoreFixtures.contact("c003"), StoreFixtures.contact("raw-only")])
            try database.store.append(delete: ["c007", "unknown"])
            let expected = try database.store.summary()
            #expect(expected.count == 21)  // 20 + journal-only + raw-only - c007
            let held = try HeldLock(database.store.lockPath)
            var opened = 0
            database.store.beforeOpeningJournalWithoutLock = { opened += 1 }
            defer { withExtendedLifetime(held) {} }  // held until the read is done
            let summary = try database.store.summary()
            #expect(summary.count == expected.count)
            #expect(summary.headSeq == expected.headSeq)
            #expect(summary.generation == expected.generation)
            #expect(opened == 1, "the full count read the journal without the lock, once")
        }
    }

    @Test("a compaction between the snapshot and the journal: the read starts over on the new generation")
    func compactionBetween() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let expected = summary(try database.all())
            let generation = try #require(try database.store.readSnapshotHeader()).generation
            let held = try HeldLock(database.store.lockPath)
            let other = JournaledStore<NoMetadata>(directory: database.store.directory)
            var opened = 0
            database.store.beforeOpeningJournalWithoutLock = {
                opened += 1
                if opened == 1 { held.released { _ = try? other.compact() } }
            }
            #expect(summary(try database.all()) == expected)
            #expect(opened == 2, "the first attempt paired the old snapshot with the new journal and started over")
            #expect(try database.store.readSnapshotHeader()?.generation != generation, "no compaction ran")
        }
    }

    @Test("a reset between the snapshot and the journal: the read starts over and sees the empty store")
    func resetBetween() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let held = try HeldLock(database.store.lockPath)
            let other = JournaledStore<NoMetadata>(directory: database.store.directory)
            var opened = 0
            database.store.beforeOpeningJournalWithoutLock = {
                opened += 1
                if opened == 1 { held.released { _ = try? other.reset() } }
            }
            #expect(try database.all().isEmpty)
            #expect(opened == 2)
        }
    }

    @Test(
        "the new snapshot beside the journal it folded (between a compaction's two renames) reads as the new snapshot")
    func newSnapshotOldJournal() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let expected = summary(try database.all())
            let store = database.store
            let folded = try StoreFixtures.bytes(store.journalPath)
            try store.compact()
            // The old journal back in place: what a reader sees between the snapshot's rename and the journal's.
            try SecureFile.replace(store.journalPath, with: folded)
            let held = try HeldLock(store.lockPath)
            var opened = 0
            store.beforeOpeningJournalWithoutLock = { opened += 1 }
            defer { withExtendedLifetime(held) {} }  // held until the reads are done
            #expect(summary(try database.all()) == expected)
            #expect(try database.get("journal-only") != nil)
            #expect(opened == 2)
        }
    }

    @Test("an append between the snapshot and the journal is read; a torn or taken-back tail is not, and stays")
    func appendsAndTails() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let store = database.store
            let held = try HeldLock(store.lockPath)
            let other = AppDatabase(appGroup: group.appGroup)
            var opened = 0
            store.beforeOpeningJournalWithoutLock = {
                opened += 1
                held.released { _ = try? other.add(StoreFixtures.contact("late")) }
            }
            #expect(try database.get("late") != nil)
            #expect(opened == 1)

            // A line whose fdatasync failed is taken back in place while the reader has the snapshot open.
            store.beforeOpeningJournalWithoutLock = {
                var written: JournalGroupCommit?
                held.released {
                    written = try? appendWithFailingSync([StoreFixtures.contact("taken-back")], to: other.store)
                }
                held.released { _ = try? written?.finish(in: other.store) }
            }
            #expect(try database.get("taken-back") == nil)
            #expect(try database.all().count == 22)

            // A torn last line (a writer stopped mid-append): ignored, and left for the next writer to cut.
            store.beforeOpeningJournalWithoutLock = nil
            let handle = try #require(FileHandle(forWritingAtPath: store.journalPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"seq":99,"upsert":[{"identifier":"half"#.utf8))
            try handle.close()
            let torn = try StoreFixtures.bytes(store.journalPath)
            #expect(try database.all().count == 22)
            #expect(try database.get("half") == nil)
            #expect(try StoreFixtures.bytes(store.journalPath) == torn, "a reader cut the torn line")
        }
    }

    @Test(
        "a journal cut back in place under a reader (a large batch taken back) does not crash it: the journal is read, never mapped"
    )
    func cutUnderReader() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let store = database.store
            var info = stat()
            #expect(stat(store.journalPath, &info) == 0)
            let end = Int(info.st_size)
            // Far more than a page past the old end, and more than MappedFile reads rather than maps.
            let batch = (0..<2000).map { index -> ContactRecord in
                var record = StoreFixtures.contact(String(format: "batch%04d", index))
                record.note = String(repeating: "b", count: 100)
                return record
            }
            let other = JournaledStore<NoMetadata>(directory: store.directory)
            let written = try appendWithFailingSync(batch, to: other)
            #expect(stat(store.journalPath, &info) == 0)
            #expect(Int(info.st_size) - end > 256 * 1024)
            let held = try HeldLock(store.lockPath)
            var cut = false
            store.afterOpeningJournalWithoutLock = {
                guard !cut else { return }
                held.released {
                    _ = try? written.finish(in: other)
                    var after = stat()
                    cut = stat(store.journalPath, &after) == 0 && Int(after.st_size) == end
                }
            }
            // Mapped, its lines past the new end would raise SIGBUS here; read, they are what was read.
            #expect(try database.all().count == 2021)
            #expect(cut, "the journal was not cut under the reader")
            #expect(try database.all().count == 21)
        }
    }

    @Test("a read that a compaction overtakes every time gives up after lockFreeAttempts and reports the error")
    func boundedRetries() throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let held = try HeldLock(database.store.lockPath)
            let other = JournaledStore<NoMetadata>(directory: database.store.directory)
            var opened = 0
            database.store.beforeOpeningJournalWithoutLock = {
                opened += 1
                held.released { _ = try? other.compact() }
            }
            #expect(throws: StoreError.self) { try database.all() }
            #expect(opened == JournaledStore<NoMetadata>.lockFreeAttempts)
            // Left alone, the same read succeeds.
            database.store.beforeOpeningJournalWithoutLock = nil
            #expect(try database.all().count == 21)
        }
    }

    /// What the store does after a crash left a compaction's new snapshot beside the journal it folded.
    enum StepAfterCrash: String, CaseIterable, CustomTestStringConvertible {
        case compaction, reset, replacement
        var testDescription: String { rawValue }
    }

    /// The CI failure of 2026-12-05 (power-loss replay, "sync followed by the system store's
    /// compaction"): after such a crash the next compaction wrote a snapshot naming only the
    /// generation before it, beside a journal two generations old, and `system list`, reading without
    /// the lock between that compaction's two renames, found the store "malformed". Each step now first
    /// finishes the interrupted one (`rollJournalForward`), so the files read at every point.
    @Test(
        "after a crash between a compaction's renames, the next compaction, reset or replacement reads at every point",
        arguments: StepAfterCrash.allCases)
    func stepAfterInterruptedCompaction(_ step: StepAfterCrash) throws {
        try withTemporaryAppGroup { group in
            let database = try database(group)
            let store = database.store
            let expected = summary(try database.all())
            let folded = try StoreFixtures.bytes(store.journalPath)
            try store.compact()
            try SecureFile.replace(store.journalPath, with: folded)  // the crash between the two renames
            let crashed = try #require(try store.readSnapshotHeader())

            let reader = AppDatabase(appGroup: group.appGroup)
            let expectedAfter: [String: String?]
            switch step {
            case .compaction: expectedAfter = expected
            case .reset: expectedAfter = [:]
            case .replacement: expectedAfter = summary([StoreFixtures.contact("new")])
            }
            var readBetween: Result<[String: String?], Error>?
            // The step holds the exclusive lock, so the reader goes without it, as `system list` did.
            store.afterReplacingSnapshot = { readBetween = Result { self.summary(try reader.all()) } }
            switch step {
            case .compaction: try store.compact()
            case .reset: try store.reset()
            case .replacement: try store.replaceAll(with: [StoreFixtures.contact("new")])
            }
            store.afterReplacingSnapshot = nil

            if let readBetween {
                #expect(try readBetween.get() == expectedAfter, "read between the \(step)'s two renames")
            } else {
                // Nothing to fold: the compaction only finished the interrupted one.
                #expect(step == .compaction, "the \(step) wrote no snapshot")
                #expect(try store.readSnapshotHeader()?.generation == crashed.generation)
            }
            let journalHeader = try #require(try StoreFixtures.lines(store.journalPath).first)
            let generation = try #require(try store.readSnapshotHeader()).generation
            #expect(journalHeader.contains(generation), "the journal is the snapshot's generation's")
            #expect(summary(try reader.all()) == expectedAfter)
        }
    }
}
