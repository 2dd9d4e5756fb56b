import Foundation

/// The contact lines one write appended to the journal, as its writer knew them: where the first
/// line starts and its seq (the others follow it, one per contact), and each contact's identifier
/// and the index keys made of it as it was copied (``ContactBatch/Notes``, ``ContactTranscoder``).
///
/// An import into an empty database writes every contact to the journal, and the compaction that
/// follows at once read each of those lines again, checking every contact and finding its fields for
/// the name index: a third of a debug build's import of 1,000,000 contacts, and a sixth of a
/// release build's (`perf`, issue 44, item 5). Handed these lines
/// (``JournaledStore/compact(shouldStop:written:)``), it folds them as they are.
///
/// It is only ever a shortcut. The compaction takes a line from here only when the journal is the
/// one these lines were written to (its inode and generation), the first starts where the first was
/// written, and each is framed as the writer frames a copied contact (`{"seq":N,…,"upsert":[`
/// contact `]}`, `JournalLineCodec.writeEntryLine`) with the seq that follows the journal's head.
/// Any other line, and every line after one that does not match, is read and checked as before.
package struct WrittenContactLines {
    /// Whether lines are noted at all: false for a store whose indexes' keys cannot be made of a
    /// contact's JSON (``SearchIndex/FieldKeys``), whose compaction must decode each contact anyway.
    package private(set) var isRecording: Bool
    /// The journal the lines are in.
    private var generation = ""
    private var journalInode: UInt64 = 0
    /// The first line: where it starts in the journal, and its seq; the others follow it, one each.
    private var firstLineStart = 0
    private var firstSeq = 0
    /// How many lines the writer wrote (``noteBatch(lines:start:firstSeq:generation:journalInode:)``).
    private var lineCount = 0
    /// What the batches noted of each line's contact, once the write is done (``adopt(_:)``): kept
    /// as three properties, not the batch's `Notes`, which a debug build copied whole (a retain and
    /// a release of each array) at every line the compaction matched.
    private var identifiers: [String] = []
    private var keyStarts: [Int] = []
    /// The noted keys, each contact's where ``match(_:line:at:seq:)`` says.
    private(set) var keys: [UInt8] = []

    /// Notes nothing: what a writer without a compaction to help is given.
    package static var none: WrittenContactLines { WrittenContactLines(isRecording: false) }

    /// A record of the lines a write appends, when `isRecording`; else one that notes nothing.
    package init(isRecording: Bool) {
        self.isRecording = isRecording
    }

    /// How many lines are noted, each with its contact.
    var count: Int { isRecording ? identifiers.count : 0 }

    /// Notes that the writer appended `lines` lines, one per contact of a batch, the first at
    /// `start` with seq `firstSeq`: the first batch's, or those right after the last batch's.
    mutating func noteBatch(lines: Int, start: Int, firstSeq: Int, generation: String, journalInode: UInt64) {
        guard isRecording else { return }
        if lineCount == 0 {
            self.generation = generation
            self.journalInode = journalInode
            firstLineStart = start
            self.firstSeq = firstSeq
        } else if generation != self.generation || journalInode != self.journalInode
            || firstSeq != self.firstSeq + lineCount
        {
            return abandon()
        }
        lineCount += lines
    }

    /// Takes what the batches noted of the contacts written (``ContactBatch/takeNotes()``): one
    /// per line, or the lines are not used.
    package mutating func adopt(_ notes: ContactBatch.Notes) {
        guard isRecording, notes.identifiers.count == lineCount, notes.keyStarts.count == lineCount else {
            return abandon()
        }
        identifiers = notes.identifiers
        keyStarts = notes.keyStarts
        keys = notes.keys
    }

    /// Gives up on the lines noted (a batch was taken back, or written another way): the
    /// compaction reads every line.
    package mutating func abandon() {
        isRecording = false
        identifiers = []
        keyStarts = []
        keys = []
    }

    /// Whether these lines can be of the journal `inode` of `generation`.
    func isOf(generation: String, journalInode: UInt64) -> Bool {
        count > 0 && generation == self.generation && journalInode == self.journalInode
    }

    /// What the compaction makes of the journal line at `start` (its bytes `line`, without the
    /// newline), the head seq being `seq - 1`, when line `index` is the next noted.
    enum Match {
        /// Line `index`: its contact's range in `line`, its identifier, and where its keys start in
        /// ``keys`` (-1 for none).
        case contact(range: Range<Int>, identifier: String, keys: Int)
        /// A line before the first noted one: it is read.
        case before
        /// Not the line noted: it and every later line are read.
        case mismatch
    }

    /// Whether the line at `start` is noted line `index` (see ``Match``): the compaction asks of
    /// each line in turn, so line `index` after the first is the line after line `index - 1`.
    func match(_ index: Int, line: UnsafeRawBufferPointer, at start: Int, seq: Int) -> Match {
        if index == 0 {
            if start < firstLineStart { return .before }
            guard start == firstLineStart else { return .mismatch }
        }
        guard seq == firstSeq + index, let contact = Self.contactRange(line, seq: seq) else { return .mismatch }
        return .contact(range: contact, identifier: identifiers[index], keys: keyStarts[index])
    }

    /// The range of the one contact of `line` when it is framed exactly as
    /// `JournalLineCodec.writeEntryLine` frames one with `seq`: `{"seq":N,"count":M,"upsert":[`,
    /// the count optional, then the contact's `{…}`, then `]}`. Nil for anything else.
    ///
    /// Read through a typed pointer, the digits in loops of its own: a debug build inlines a typed
    /// pointer's subscript and integer operators, and calls a raw buffer's subscript, once per
    /// line of every import it compacts.
    static func contactRange(_ line: UnsafeRawBufferPointer, seq: Int) -> Range<Int>? {
        let seqKey: StaticString = #"{"seq":"#
        let countKey: StaticString = #","count":"#
        let upsertKey: StaticString = #","upsert":["#
        let count = line.count
        guard let raw = line.baseAddress, count > 24, memcmp(raw, seqKey.utf8Start, seqKey.utf8CodeUnitCount) == 0
        else { return nil }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        var position = seqKey.utf8CodeUnitCount
        var value = 0
        while position < count, position < 25, bytes[position] &- 0x30 < 10 {
            value = value &* 10 &+ Int(bytes[position] &- 0x30)
            position += 1
        }
        guard position > seqKey.utf8CodeUnitCount, value == seq, count - position > 24 else { return nil }
        if memcmp(bytes + position, countKey.utf8Start, countKey.utf8CodeUnitCount) == 0 {
            position += countKey.utf8CodeUnitCount
            let digits = position
            while position < count, position - digits < 18, bytes[position] &- 0x30 < 10 { position += 1 }
            guard position > digits else { return nil }
        }
        let contactStart = position + upsertKey.utf8CodeUnitCount
        let contactEnd = count - 2
        guard contactEnd - contactStart >= 2,
            memcmp(bytes + position, upsertKey.utf8Start, upsertKey.utf8CodeUnitCount) == 0,
            bytes[contactStart] == 0x7B, bytes[contactEnd - 1] == 0x7D, bytes[contactEnd] == 0x5D,
            bytes[contactEnd + 1] == 0x7D
        else { return nil }
        return contactStart..<contactEnd
    }
}
