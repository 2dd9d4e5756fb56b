import Synchronization

/// A ``ContactRecord``'s fields and the bytes they were read from, shared by copies of the record
/// until one of them writes (copy-on-write).
///
/// **Deferred decoding.** A storage made by ``init(identifier:deferring:)`` holds a contact's
/// identifier and its JSON bytes, and decodes the other fields from the bytes the first time anyone
/// reads one. A full sync hands every contact of the app's snapshot through the provider to the
/// system's journal, which writes the bytes as they are (``ContactRecord/verbatim``): nobody reads
/// the fields, and making them — strings and arrays for each contact, allocated on one thread and
/// freed on another after the commit — was a quarter of the sync's time (P3).
///
/// **Threads.** Records are `Sendable`, so a storage can be read from several threads at once; it
/// is written only while a single record holds it (`ContactRecord.ownStorage`), and a deferred
/// storage is never written: the record replaces it first. Its decoded fields live in a second,
/// ordinary storage published once (``AtomicLazyReference``): two threads reading at the same
/// moment may both decode, one result is kept, and they agree since decoding depends only on the
/// bytes. A storage that is not deferred pays one branch on a constant per read.
final class ContactRecordStorage: @unchecked Sendable {
    /// All the fields; in a deferred storage, the identifier only (the rest stays empty).
    @exclusivity(unchecked) var fields: ContactRecord.Fields
    @exclusivity(unchecked) var verbatim: VerbatimJSON
    /// Whether the fields other than the identifier are still in ``verbatim`` only.
    let isDeferred: Bool
    /// A deferred storage's fields, once decoded.
    private let decoded = AtomicLazyReference<ContactRecordStorage>()

    // `consuming`, and consumed: a debug build otherwise copies the 28 fields (a retain each) and
    // then destroys the argument, for every record a decoder makes.
    init(fields: consuming ContactRecord.Fields, verbatim: VerbatimJSON = VerbatimJSON()) {
        self.fields = consume fields
        self.verbatim = verbatim
        isDeferred = false
    }

    /// A storage of `identifier` whose other fields are decoded from `bytes` when first read.
    ///
    /// The caller has checked that `bytes` decode (`ContactRecordCodec.checkRecord` accepts exactly
    /// what the decoder accepts) and hold `identifier`.
    init(identifier: String, deferring bytes: VerbatimJSON) {
        fields = ContactRecord.Fields(identifier: identifier)
        verbatim = bytes
        isDeferred = true
    }

    /// The storage whose ``fields`` are all there: this one, or a deferred storage's decoded twin.
    var complete: ContactRecordStorage {
        guard isDeferred else { return self }
        if let twin = decoded.load() { return twin }
        return decoded.storeIfNil(ContactRecordStorage(fields: decodeDeferredFields(), verbatim: verbatim))
    }

    /// Whether this storage defers decoding and has decoded its fields.
    var hasDecodedDeferredFields: Bool { isDeferred && decoded.load() != nil }

    private func decodeDeferredFields() -> ContactRecord.Fields {
        guard let bytes = verbatim.bytes,
            let decoded = bytes.withUnsafeBytes({ ContactRecordCodec.fastDecodeFields($0) })
        else {
            // `ContactRecordCheckTests` hold the check that admitted these bytes to the decoder.
            preconditionFailure("A contact's checked JSON no longer decodes: \(verbatim)")
        }
        return decoded
    }
}
