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
    /// For each contact: its record, or nil when its JSON is in `json`, ending at `ends[i]`.
    private var records: [ContactRecord?] = []
    private var ends: [Int] = []
    /// For each contact, whether it adds one (true) or replaces a live one (false).
    private(set) var added: [Bool] = []

    /// An empty batch with room for `capacity` contacts.
    package init(capacity: Int) {
        records.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
        added.reserveCapacity(capacity)
    }

    /// How many contacts the batch holds.
    package var count: Int { ends.count }

    /// Adds `record` (already in the form the store keeps: `IdentifierRules.normalized`).
    package mutating func append(_ record: ContactRecord, isNew: Bool) {
        records.append(record)
        ends.append(json.count)
        added.append(isNew)
    }

    /// Copies the contact whose JSON is `bytes` into the store's form (``ContactTranscoder``), not
    /// yet added; returns its identifier, or nil when the contact must be decoded instead (nothing
    /// is then kept). ``appendTranscoded(isNew:)`` adds it.
    package mutating func transcode(_ bytes: UnsafeRawBufferPointer) -> String? {
        transcoder.transcode(bytes, into: &json)
    }

    /// Adds the contact ``transcode(_:)`` copied last.
    package mutating func appendTranscoded(isNew: Bool) {
        records.append(nil)
        ends.append(json.count)
        added.append(isNew)
    }

    /// The record of contact `index`, or nil when its JSON is encoded (``json(at:)``).
    package func record(at index: Int) -> ContactRecord? {
        records[index]
    }

    /// The store's JSON of contact `index`, when it is encoded (valid until the batch changes).
    package func json(at index: Int) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(rebasing: json.bytes[start..<ends[index]])
    }

    /// The record of contact `index`, an encoded one decoded: the record its JSON was copied for
    /// (the rare path that writes a batch one contact at a time).
    package func decodedRecord(at index: Int) throws -> ContactRecord {
        if let record = records[index] { return record }
        let bytes = json(at: index)
        return try ContactRecordCodec.decode(bytes, range: 0..<bytes.count)
    }

    /// Empties the batch, keeping its memory.
    package mutating func removeAll() {
        json.removeAll()
        records.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        added.removeAll(keepingCapacity: true)
    }
}
