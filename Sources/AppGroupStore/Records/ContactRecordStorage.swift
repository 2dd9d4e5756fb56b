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
///
/// Two subclasses: ``ContactRecordFieldStorage`` (the fields) and ``DeferredContactRecordStorage``
/// (an identifier and bytes).
class ContactRecordStorage: @unchecked Sendable {
    @exclusivity(unchecked) final var verbatim: VerbatimJSON
    /// Whether this is a ``DeferredContactRecordStorage`` (else a ``ContactRecordFieldStorage``):
    /// a constant, so that telling them apart costs no dynamic cast.
    final let isDeferred: Bool

    fileprivate init(verbatim: VerbatimJSON, isDeferred: Bool) {
        self.verbatim = verbatim
        self.isDeferred = isDeferred
    }

    /// The storage whose fields are all there: this one, or a deferred storage's decoded twin.
    final var complete: ContactRecordFieldStorage {
        if isDeferred { return unsafeDowncast(self, to: DeferredContactRecordStorage.self).decodedTwin }
        return unsafeDowncast(self, to: ContactRecordFieldStorage.self)
    }

    /// The record's identifier, which every storage holds without decoding.
    final var identifier: String {
        if isDeferred { return unsafeDowncast(self, to: DeferredContactRecordStorage.self).deferredIdentifier }
        return unsafeDowncast(self, to: ContactRecordFieldStorage.self).fields.identifier
    }

    /// Whether this storage defers decoding and has decoded its fields.
    final var hasDecodedDeferredFields: Bool {
        isDeferred && unsafeDowncast(self, to: DeferredContactRecordStorage.self).hasDecoded
    }
}

/// A storage of all the fields, written only while a single record holds it.
final class ContactRecordFieldStorage: ContactRecordStorage, @unchecked Sendable {
    @exclusivity(unchecked) var fields: ContactRecord.Fields

    // `consuming`, and consumed: a debug build otherwise copies the 28 fields (a retain each) and
    // then destroys the argument, for every record a decoder makes.
    init(fields: consuming ContactRecord.Fields, verbatim: VerbatimJSON = VerbatimJSON()) {
        self.fields = consume fields
        super.init(verbatim: verbatim, isDeferred: false)
    }
}

/// A storage of an identifier and the bytes the other fields are decoded from when first read; never
/// written. It holds no fields of its own: destroying 28 empty ones, a release each, was a twentieth
/// of a full sync.
final class DeferredContactRecordStorage: ContactRecordStorage, @unchecked Sendable {
    let deferredIdentifier: String
    private let decoded = AtomicLazyReference<ContactRecordFieldStorage>()

    /// A storage of `identifier` whose other fields are decoded from `bytes` when first read.
    ///
    /// The caller has checked that `bytes` decode (`ContactRecordCodec.checkRecord` accepts exactly
    /// what the decoder accepts) and hold `identifier`.
    init(identifier: String, deferring bytes: VerbatimJSON) {
        deferredIdentifier = identifier
        super.init(verbatim: bytes, isDeferred: true)
    }

    /// The decoded fields, decoded by the first reader (two at once may both decode; one is kept).
    var decodedTwin: ContactRecordFieldStorage {
        if let twin = decoded.load() { return twin }
        return decoded.storeIfNil(ContactRecordFieldStorage(fields: decodeFields(), verbatim: verbatim))
    }

    var hasDecoded: Bool { decoded.load() != nil }

    private func decodeFields() -> ContactRecord.Fields {
        guard let bytes = verbatim.bytes,
            let decoded = bytes.withUnsafeBytes({ ContactRecordCodec.fastDecodeFields($0) })
        else {
            // `ContactRecordCheckTests` hold the check that admitted these bytes to the decoder.
            preconditionFailure("A contact's checked JSON no longer decodes: \(verbatim)")
        }
        return decoded
    }
}
