import Foundation
import Glibc

// Whole snapshots: the head a writer starts from, writing a snapshot from records, and finishing a
// compaction's or reset's second rename.
extension JournaledStore {
    func currentHeadUnlocked() throws -> Int {
        guard let header = try readSnapshotHeader() else { return 0 }
        guard let journal = try openJournalForReading(),
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
        var writer = JSONWriter(capacity: 256 + records.count * 200)
        writer.append(try LineCoding.encoder().encode(header))
        writer.byte(0x0A)  // \n
        var indexes = derivedIndexes.map { SearchIndexBuilder(index: $0, expectedCount: records.count) }
        for record in records {
            let offset = writer.count
            try ContactRecordCodec.encode(record, into: &writer)
            writer.byte(0x0A)
            for position in indexes.indices { indexes[position].append(offset: offset, record: record) }
        }
        let snapshotSize = writer.count
        try SecureFile.replace(snapshotPath, with: writer.data)
        CommitWitness.noteCommit()
        afterReplacingSnapshot?()
        // After the snapshot is durable (see `compact`).
        for builder in indexes {
            builder.write(
                to: path(of: builder.index), generation: generation, snapshotPath: snapshotPath,
                expectedSnapshotSize: snapshotSize)
        }
    }

    /// Replaces a journal that holds nothing of `header`'s generation with an empty one of it, and
    /// returns whether it did. The caller holds the exclusive lock.
    ///
    /// A crash between a compaction's or reset's two renames leaves the new snapshot beside the
    /// journal it superseded, which readers prove harmless through the snapshot's
    /// `previousGeneration` or `replacedGeneration`. A writer must finish that step before it writes
    /// yet another snapshot: the newer one names only the generation before it, so beside a journal
    /// two generations old — between its own two renames, which a reader without the lock can see,
    /// or after a second crash there — the store would read as damaged. Throws, having written
    /// nothing, when the journal is of a generation the snapshot does not prove superseded.
    @discardableResult
    func rollJournalForward(to header: SnapshotHeader<Meta>) throws -> Bool {
        guard let journal = try MappedFile.openJournalIfPresent(journalPath),
            try journalHeaderEnd(journal, snapshot: header) == nil
        else { return false }
        try writeEmptyJournal(generation: header.generation, baseSeq: header.baseSeq)
        return true
    }

    func writeEmptyJournal(generation: String, baseSeq: Int) throws {
        let header = JournalHeader(
            format: StoreFormat.version, kind: "journal", generation: generation, baseSeq: baseSeq)
        try SecureFile.replace(journalPath, with: try LineCoding.encodeLine(header))
    }
}
