// Records that decode their fields on first read (`ContactRecordStorage`): a content page's.
extension ContactRecordCodec {
    /// The record of one contact's JSON object, as ``fastDecode(_:keeping:)`` keeping the bytes makes
    /// it, but checked rather than decoded: it holds the identifier and the bytes, and decodes
    /// its other fields the first time one is read (``ContactRecord/defersDecoding``). Nil when
    /// Foundation must decide, exactly as for `fastDecode`.
    ///
    /// For the records of a content page: the system writes their bytes to its journal as they
    /// are, and nothing on the way reads their fields. A contact with a birthday, dates, a
    /// non-Gregorian birthday or a contact type is decoded at once (the bridge to `CNContact` asks
    /// about those values), and so is one whose bytes are not exactly one object.
    package static func deferringRecord(_ bytes: UnsafeRawBufferPointer) -> ContactRecord? {
        deferringRecord(bytes, keeping: VerbatimJSON(bytes))
    }

    /// ``deferringRecord(_:)``, the record keeping `verbatim` (`bytes`, or a shared copy of them:
    /// ``VerbatimJSON/init(sharing:)``), made only once the bytes are known to decode.
    static func deferringRecord(_ bytes: UnsafeRawBufferPointer, keeping verbatim: @autoclosure () -> VerbatimJSON)
        -> ContactRecord?
    {
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        var valued: UInt64 = 0
        guard let identifier = try? checkRecord(&reader, capturing: 0, into: nil, valued: &valued),
            (try? reader.finish()) != nil
        else { return nil }
        let object = verbatim()
        guard valued & decodedAtOnce == 0, object.bytes != nil else { return fastDecode(bytes, keeping: object) }
        return ContactRecord(identifier: identifier, deferring: object)
    }

    /// The fields whose values make ``deferringRecord(_:)`` decode a contact at once: the ones
    /// `ContactRecord.bridgesExactly` reads.
    static let decodedAtOnce = fieldMask([.birthday, .dates, .nonGregorianBirthday, .contactType])
}
