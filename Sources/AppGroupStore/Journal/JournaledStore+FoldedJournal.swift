import Foundation
import Glibc

// The journal a compaction folded, kept so an anchor behind the compaction is still answered with
// changes (issue 44, item 3): a bulk write behind a live anchor arrives as change batches, not as a
// forced full resync whose cause depends on the write's size relative to the store.
extension JournaledStore {
    /// `<directory>/journal.previous.jsonl`: the journal the last compaction folded, when the store
    /// keeps it (``retainsPreviousJournal``). It is history only: no contact is read from it, so losing
    /// it (a power cut, a repair) costs an anchor's expiry, never a contact.
    package var previousJournalPath: String { directory + "/journal.previous.jsonl" }

    /// Keeps the journal being folded as the previous journal: a hard link made under a temporary
    /// name and renamed over the last one, so a reader sees either the old or the new file whole.
    /// Called with the exclusive lock held, after the new snapshot is durable and before the journal
    /// is replaced by an empty one. A failure is not the compaction's: the history is lost, so an
    /// anchor behind this compaction expires as it did before this file existed.
    func retainFoldedJournal() {
        let temp = TemporaryName.path(for: previousJournalPath)
        guard link(journalPath, temp) == 0 else {
            unlink(previousJournalPath)  // a stale history must not answer for this generation
            return
        }
        if rename(temp, previousJournalPath) != 0 {
            unlink(temp)
            unlink(previousJournalPath)
        }
    }

    /// The entries after `seq` (at most `limit`) up to `header.baseSeq`, from the previous journal:
    /// nil when it cannot answer (not kept, another generation than the one the snapshot follows,
    /// starting after `seq`, not reaching `header.baseSeq`, or unreadable), which is an expiry.
    func foldedEntries(after seq: Int, before header: SnapshotHeader<Meta>, limit: Int) -> [JournalEntry<Meta>]? {
        guard retainsPreviousJournal, let previousGeneration = header.previousGeneration,
            let journal = try? MappedFile.openJournalIfPresent(previousJournalPath),
            let headerEnd = journal.newline(from: 0),
            let journalHeader = try? StoreHeaderCodec.decodeJournalHeader(journal.data(0..<headerEnd)),
            journalHeader.generation == previousGeneration, journalHeader.baseSeq <= seq,
            (try? headSeq(journal, start: headerEnd + 1, baseSeq: journalHeader.baseSeq)) == header.baseSeq
        else { return nil }
        var entries: [JournalEntry<Meta>] = []
        guard var offset = try? findEntry(journal, from: headerEnd + 1, seq: seq + 1, baseSeq: journalHeader.baseSeq)
        else { return seq == header.baseSeq ? [] : nil }
        let decoder = JSONDecoder()
        var expected = seq + 1
        while entries.count < limit, offset < journal.size, let end = journal.newline(from: offset) {
            guard let entry = try? decodeEntry(decoder, journal, offset..<end, retain: true), entry.seq == expected
            else { return nil }
            entries.append(entry)
            expected += 1
            offset = end + 1
        }
        return entries
    }
}
