import Foundation

/// Contacts on their way into the journal, one entry each, in order (``JournaledStore/Writer/appendEach(_:)``):
/// records, or contacts whose JSON is already the store's (an import's, copied by ``ContactTranscoder``
/// instead of decoded and encoded again).
///
/// Non-copyable: it owns the encoded contacts' memory and the transcoder's, reused batch after batch.
package struct ContactBatch: ~Copyable {
    /// The encoded contacts' JSON, one after another.
    private var json = JSONWriter(capacity: 1 << 20)
    private var transcoder = ContactTranscoder()
    /// The records of the contacts added as records, in order.
    private var records: [ContactRecord] = []
    /// For each contact: where its record is in `records`, or -1 when its JSON is in `json`, ending
    /// at `ends[i]`. Not an array of optional records: a debug build appends to and reads such an
    /// array through its generic code, value witnesses and all, once per contact an import copies.
    private var recordIndexes: [Int] = []
    private var ends: [Int] = []
    /// For each contact, whether it adds one (true) or replaces a live one (false).
    private(set) var added: [Bool] = []
    /// Makes the index keys of each copied contact from the fields the transcoder found, when the
    /// batch notes its contacts (``init(capacity:derivingKeysFor:)``).
    private let deriver: FieldKeyDeriver?
    /// Whether the batch notes each contact it holds (``Notes``): every index of the store has
    /// ``SearchIndex/FieldKeys`` (or there is none), so the keys of a copied contact can be derived.
    package let notesContacts: Bool
    /// What was noted of every contact held so far, batch after batch (``removeAll()`` keeps it).
    private var notes = Notes()

    /// What a batch that ``notesContacts`` notes of each contact it held, in order, for the compaction
    /// that follows the write (``WrittenContactLines``): kept here, not by the writer line by line,
    /// which cost a debug import a twentieth of its time (`perf`).
    package struct Notes {
        /// Each contact's identifier.
        var identifiers: [String] = []
        /// Where each contact's keys start in `keys`; -1 for one without (a record, or a contact
        /// whose keys could not be derived: its compaction decodes it).
        var keyStarts: [Int] = []
        /// The derived keys, one contact after another (``FieldKeyDeriver`` writes each index's,
        /// newline-terminated).
        var keys: [UInt8] = []
    }

    /// An empty batch with room for `capacity` contacts.
    package init(capacity: Int) {
        self.init(capacity: capacity, derivingKeysFor: nil)
    }

    /// An empty batch with room for `capacity` contacts that notes each contact, deriving the keys
    /// of `indexes` (a store's ``JournaledStore/derivedIndexes``) for each one it copies, when it
    /// can (``notesContacts``).
    package init(capacity: Int, derivingKeysFor indexes: [SearchIndex]?) {
        recordIndexes.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        added.reserveCapacity(capacity)
        if let indexes {
            deriver = FieldKeyDeriver(indexes)
            notesContacts = indexes.isEmpty || deriver != nil
        } else {
            deriver = nil
            notesContacts = false
        }
    }

    /// What was noted of every contact held (empty unless ``notesContacts``); the batch notes afresh.
    package mutating func takeNotes() -> Notes {
        let taken = notes
        notes = Notes()
        return taken
    }

    /// How many contacts the batch holds.
    package var count: Int { ends.count }

    /// Adds `record` (already in the form the store keeps: `IdentifierRules.normalized`).
    package mutating func append(_ record: ContactRecord, isNew: Bool) {
        recordIndexes.append(records.count)
        records.append(record)
        ends.append(json.count)
        added.append(isNew)
        if notesContacts {
            notes.identifiers.append(record.identifier)
            notes.keyStarts.append(-1)
        }
    }

    /// Copies the contact whose JSON is `bytes` into the store's form (``ContactTranscoder``), not
    /// yet added; returns its identifier, or nil when the contact must be decoded instead (nothing
    /// is then kept). ``appendTranscoded(isNew:identifier:)`` adds it.
    package mutating func transcode(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let deriver else { return transcoder.transcode(bytes, into: &json) }
        return transcoder.transcode(bytes, into: &json, capturing: deriver.mask, into: deriver.ranges)
    }

    /// Adds the contact ``transcode(_:)`` copied last, whose identifier it returned.
    package mutating func appendTranscoded(isNew: Bool, identifier: String) {
        let start = ends.isEmpty ? 0 : ends[ends.count - 1]
        recordIndexes.append(-1)
        ends.append(json.count)
        added.append(isNew)
        guard notesContacts else { return }
        notes.identifiers.append(identifier)
        guard let deriver else {
            notes.keyStarts.append(-1)
            return
        }
        // The fields `transcode` noted are those of the JSON it appended last, from its first byte.
        let keyStart = notes.keys.count
        let contact = json.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
        if deriver.appendKeys(json: contact, to: &notes.keys) {
            notes.keyStarts.append(keyStart)
        } else {
            notes.keys.removeLast(notes.keys.count - keyStart)
            notes.keyStarts.append(-1)
        }
    }

    /// Whether contact `index` was added as a record (``record(at:)``), not as JSON (``json(at:)``).
    package func isRecord(at index: Int) -> Bool {
        recordIndexes[index] >= 0
    }

    /// The record of contact `index`, or nil when its JSON is encoded (``json(at:)``).
    package func record(at index: Int) -> ContactRecord? {
        let position = recordIndexes[index]
        return position >= 0 ? records[position] : nil
    }

    /// The store's JSON of contact `index`, when it is encoded (valid until the batch changes).
    package func json(at index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: json.bytes.baseAddress! + start, count: ends[index] - start)
    }

    /// The record of contact `index`, an encoded one decoded: the record its JSON was copied for
    /// (the rare path that writes a batch one contact at a time).
    package func decodedRecord(at index: Int) throws -> ContactRecord {
        if let record = record(at: index) { return record }
        let bytes = json(at: index)
        return try ContactRecordCodec.decode(bytes, range: 0..<bytes.count)
    }

    /// Empties the batch, keeping its memory and its notes (``takeNotes()``).
    package mutating func removeAll() {
        json.removeAll()
        records.removeAll(keepingCapacity: true)
        recordIndexes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        added.removeAll(keepingCapacity: true)
    }
}
