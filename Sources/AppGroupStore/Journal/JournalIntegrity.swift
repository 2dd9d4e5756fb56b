import Foundation
import Glibc

/// The rules that tell a store that was never written, or a harmless crash leftover, from damage.
///
/// A damaged store must never read as an empty or shorter one: a reader would show a subset, the
/// next write would rewrite the journal (losing what it held), and the next sync would delete the
/// missing contacts from the system store. So only two things read as "nothing here":
/// - no snapshot and no journal content at all (a store that was never written), and
/// - a journal of another generation that is *proven* folded into (or discarded by) the snapshot.
/// Everything else is reported as `StoreError.malformed` with the file and line, and nothing is written.
extension JournaledStore {
    /// The snapshot, or nil when the store was never written.
    ///
    /// Snapshots are only ever replaced atomically (temp file + rename), and the journal is created
    /// after its snapshot, so an empty snapshot, or a missing one beside a journal, is damage.
    func openSnapshot(prefix: Int? = nil) throws -> MappedFile? {
        guard let snapshot = try MappedFile.openIfPresent(snapshotPath, prefix: prefix) else {
            var info = stat()
            if stat(journalPath, &info) == 0, info.st_size > 0 {
                throw StoreError.malformed(
                    path: snapshotPath, line: 1,
                    reason: "the file is missing but journal.jsonl holds \(info.st_size) bytes of changes "
                        + "(run `contacts-host doctor --repair` to rebuild it from what is readable)")
            }
            return nil
        }
        guard snapshot.size > 0 else {
            throw StoreError.malformed(
                path: snapshotPath, line: 1,
                reason: "the file is empty; a snapshot always starts with a header line "
                    + "(run `contacts-host doctor --repair` to rebuild it from what is readable)")
        }
        return snapshot
    }

    /// Whether `file` (opened by ``openSnapshot(prefix:)``, whole) is still the file at
    /// `snapshotPath`: mapped, with the same inode and size. A snapshot is replaced whole, never
    /// rewritten in place, so its mapping can be read again instead of mapping the file anew (which
    /// costs an `munmap` of the old one, a TLB shootdown on every core, per content page).
    ///
    /// Only a mapping pins the file (``MappedFile/pinsInode``). A small snapshot is read into memory
    /// and its file closed; once replaced, its inode number is free, and a later compaction's file
    /// can get it, at the same size: an old snapshot read with the new journal ("neither the
    /// snapshot's nor one it superseded", in a conformance run). Such a file is opened again.
    func isCurrentSnapshot(_ file: MappedFile) -> Bool {
        guard file.pinsInode else { return false }
        var info = stat()
        return stat(snapshotPath, &info) == 0 && UInt64(info.st_ino) == file.inode && Int(info.st_size) == file.size
    }

    /// Throws unless the journal whose header is `header` (of another generation than `snapshot`'s) is
    /// proven superseded: its generation is the one `snapshot` was compacted from, or the one a reset
    /// or replacement discarded, and its last complete entry is exactly the snapshot's `baseSeq`.
    ///
    /// That is the state a crash between the two renames of a compaction or reset leaves; a changed
    /// character in the generation, or a journal with changes the snapshot does not hold, is not.
    func checkSuperseded(
        _ journal: MappedFile, header: JournalHeader, headerEnd: Int, by snapshot: SnapshotHeader<Meta>
    ) throws {
        let lineage = [snapshot.previousGeneration, snapshot.replacedGeneration].compactMap { $0 }
        guard lineage.contains(header.generation) else {
            throw StoreError.malformed(
                path: journalPath, line: 1,
                reason: "generation '\(header.generation)' is neither the snapshot's ('\(snapshot.generation)') "
                    + "nor one it superseded; the journal's changes would be lost "
                    + "(run `contacts-host doctor --repair` to keep every readable change)")
        }
        let last = try headSeq(journal, start: headerEnd, baseSeq: header.baseSeq)
        guard header.baseSeq <= snapshot.baseSeq, last == snapshot.baseSeq else {
            throw StoreError.malformed(
                path: journalPath, line: 1,
                reason: "the journal of superseded generation '\(header.generation)' ends at seq \(last), "
                    + "but the snapshot holds changes up to seq \(snapshot.baseSeq) "
                    + "(run `contacts-host doctor --repair` to keep every readable change)")
        }
    }
}
