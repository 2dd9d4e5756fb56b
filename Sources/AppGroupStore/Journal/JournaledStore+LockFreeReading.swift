import Foundation
import Glibc

// Readers never wait for a writer or a compaction (issue 44, item 1).
//
// Every file a reader needs is either replaced whole by an atomic rename (the snapshot, the search
// indexes, the journal when a compaction or reset starts a new generation) or only appended to (the
// journal within a generation). So a reader needs no lock to see a committed state:
// - the snapshot it opened stays that generation's file however long it reads it (the open file
//   pins the inode; a rename only changes what the name points to), so it is mapped as usual;
// - the journal is read with `pread`, never mapped: within a generation a writer may cut it back in
//   place (a torn tail after a crash, lines whose `fdatasync` failed), and a mapped page past the new
//   end would raise SIGBUS. Only complete lines are applied; a torn last line is ignored, never cut
//   off (repairing is a writer's job);
// - the two files are opened one after the other, snapshot first. A compaction or reset writes the
//   new snapshot, then the new journal, so a reader may pair an old snapshot with the new journal
//   (its generation is neither the snapshot's nor one it superseded: the read fails) or the new
//   snapshot with the old journal (proven superseded by `checkSuperseded`: the snapshot already
//   holds those changes, and the read is right). A read that fails while the files changed under
//   it is simply done again, on the new generation, at most `lockFreeAttempts` times.
extension JournaledStore {
    /// How many times a read without the lock starts over because a compaction or reset replaced
    /// the files under it, before it reports what it found. Each retry needs another compaction to
    /// finish meanwhile, so more than a couple in a row means the store is damaged, not busy.
    package static var lockFreeAttempts: Int { 8 }

    /// Runs a shared read: under the shared lock when it is free (nothing can change under the
    /// reader, and the journal may be mapped), else at once without it (``readWithoutLock(_:)``).
    func readShared<T>(_ lock: FileLock, _ body: () throws -> T) throws -> T {
        if try lock.tryLock(.shared) {
            defer { lock.unlock() }
            return try body()
        }
        return try readWithoutLock(body)
    }

    /// Runs `body` without any lock, the journal read rather than mapped; starts over (bounded)
    /// when it failed while a compaction or reset replaced the files, so the error it reports is
    /// one of a store that held still.
    package func readWithoutLock<T>(_ body: () throws -> T) throws -> T {
        let outer = readsWithoutLock
        readsWithoutLock = true
        defer { readsWithoutLock = outer }
        var attempt = 1
        while true {
            let before = FilesMark(self)
            do {
                return try body()
            } catch {
                guard attempt < Self.lockFreeAttempts, FilesMark(self) != before else { throw error }
                attempt += 1
            }
        }
    }

    /// The journal, for a reader: mapped under the lock, read with `pread` without it.
    func openJournalForReading() throws -> MappedFile? {
        if readsWithoutLock, let hook = beforeOpeningJournalWithoutLock { hook() }
        let journal = try MappedFile.openJournalIfPresent(journalPath, mapping: !readsWithoutLock)
        if readsWithoutLock, let hook = afterOpeningJournalWithoutLock { hook() }
        return journal
    }

    /// What changes when a writer replaces, cuts or extends the store's files: their inodes, and the
    /// journal's size and change time.
    private struct FilesMark: Equatable {
        var snapshot: UInt64 = 0
        var journal: UInt64 = 0
        var journalSize: Int = -1
        var journalChanged: Int = 0
        var journalChangedNanoseconds: Int = 0

        init(_ store: JournaledStore) {
            var info = stat()
            if stat(store.snapshotPath, &info) == 0 { snapshot = UInt64(info.st_ino) }
            if stat(store.journalPath, &info) == 0 {
                journal = UInt64(info.st_ino)
                journalSize = Int(info.st_size)
                journalChanged = Int(info.st_ctim.tv_sec)
                journalChangedNanoseconds = Int(info.st_ctim.tv_nsec)
            }
        }
    }
}
