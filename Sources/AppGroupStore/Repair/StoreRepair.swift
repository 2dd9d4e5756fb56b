import Foundation
import Glibc

/// Rebuilding a damaged store without a moment in which its data exists only aside.
///
/// The order is what makes a repair safe to interrupt at any instant — a power cut, `kill -9`,
/// Ctrl-C or a full disk:
/// 1. the damaged files get a second name, `<name>.damaged-<timestamp>` (a hard link: the bytes stay
///    where they are, no space is needed), and the directory is fsynced;
/// 2. the rebuilt snapshot replaces `snapshot.jsonl` atomically and durably (temp file, fsync, rename,
///    directory fsync). It names the damaged journal's generation as the one it replaced, so a cut
///    here leaves a snapshot beside a journal it provably supersedes (`checkSuperseded`), or, when
///    that journal cannot be read, a store that still reads as damaged and is repaired again;
/// 3. an empty journal of the new generation replaces `journal.jsonl` the same way.
/// At no point is either file missing, so a store never reads as empty while its contacts survive
/// only in `*.damaged-*` files that nothing points to.
extension JournaledStore {
    /// What `repair(timestamp:)` did.
    package struct RepairReport: Sendable {
        /// The damaged files kept aside (their new names).
        package var movedAside: [String]
        /// What was read back.
        package var salvage: StoreSalvage<Meta>
    }

    /// Rebuilds a damaged store from every readable line, without deleting anything.
    ///
    /// The damaged `snapshot.jsonl` and `journal.jsonl` are kept as `<name>.damaged-<timestamp>`, then a
    /// new snapshot (a new generation with no predecessor, so every anchor expires and the next sync is
    /// a full content enumeration) and an empty journal replace them, built from `salvage()`.
    package func repair(timestamp: String) throws -> RepairReport {
        try withLockForRepair {
            // A file of a newer format is not damaged: rewriting it in this version's format would lose
            // what the newer version stored.
            try refuseNewerFormat()
            let salvage = try self.salvage()
            let kept = try keepDamagedFiles(timestamp: timestamp)
            try replaceDamaged(with: salvage.contacts, meta: salvage.meta, headSeq: salvage.headSeq)
            return RepairReport(movedAside: kept, salvage: salvage)
        }
    }

    /// Keeps the damaged files aside and replaces the store with an empty one of a new generation
    /// (for derived stores, like the system's, that the next sync rebuilds); returns the kept paths.
    ///
    /// Unlike ``reset(meta:)`` it reads nothing from the damaged files but what `salvage()` can read,
    /// so it works on a store that `load()` refuses.
    package func replaceDamagedWithEmpty(meta: Meta?, timestamp: String) throws -> [String] {
        try withLockForRepair {
            let headSeq = try salvage().headSeq
            let kept = try keepDamagedFiles(timestamp: timestamp)
            try replaceDamaged(with: [], meta: meta, headSeq: headSeq)
            return kept
        }
    }

    /// Steps 2 and 3 of a repair (see the type's comment). The caller holds the lock.
    private func replaceDamaged(with records: [ContactRecord], meta: Meta?, headSeq: Int) throws {
        let generation = UUID().uuidString
        try writeSnapshot(
            generation: generation, previousGeneration: nil, replacedGeneration: damagedJournalGeneration(),
            baseSeq: headSeq, records: records, meta: meta)
        try writeEmptyJournal(generation: generation, baseSeq: headSeq)
    }

    /// The generation named by the journal's header line, when it can be read.
    private func damagedJournalGeneration() -> String? {
        guard let data = try? SecureFile.readIfPresent(journalPath), let newline = data.firstIndex(of: 0x0A) else {
            return nil
        }
        return (try? JSONDecoder().decode(JournalHeader.self, from: data[..<newline]))?.generation
    }

    private struct FormatProbe: Decodable {
        var format: Int
    }

    /// Throws `unsupportedFormat` when a file's header names another format version.
    private func refuseNewerFormat() throws {
        for path in [snapshotPath, journalPath] {
            guard let data = try SecureFile.readIfPresent(path), let newline = data.firstIndex(of: 0x0A),
                let probe = try? JSONDecoder().decode(FormatProbe.self, from: data[..<newline]),
                probe.format != StoreFormat.version
            else { continue }
            throw StoreError.unsupportedFormat(path: path, version: probe.format)
        }
    }

    /// Step 1: gives each existing store file a second name, `<name>.damaged-<timestamp>`, and makes
    /// the names durable; returns them. The caller holds the store's lock.
    ///
    /// A hard link keeps the very bytes (and needs no space on a full disk); where the file system has
    /// no hard links, the bytes are copied to the new name durably instead.
    private func keepDamagedFiles(timestamp: String) throws -> [String] {
        var kept: [String] = []
        for path in [snapshotPath, journalPath] {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            // A second repair in the same second gets its own name: an earlier copy is never replaced.
            kept.append(try SecureFile.linkAside(path, timestamp: timestamp))
        }
        try SecureFile.syncDirectory(directory)
        return kept
    }
}
