import Foundation

// An import file's usual shape, a JSON array of plain contacts, checked in one pass.
extension ContactRecordCodec {
    /// The contacts of `bytes` when it is a JSON array (white space around it allowed) of objects
    /// that ``identifierIfPlain(_:)`` each accepts: each one's byte range in `bytes` (from its `{`
    /// to after its `}`) and its identifier, in order. Nil when it is anything else; the caller then
    /// finds the contacts another way and decides contact by contact.
    ///
    /// One strict pass finds where each contact ends while checking it: an import's check used to
    /// scan the whole file for the contacts' ends first, then read each again (a fifth of a debug
    /// import's check). `ContactArrayCheckTests` hold it to the scan-then-check answer.
    ///
    /// `firstIsPlain` is asked of the first contact's range before any other is read: false gives
    /// nil at once (an import of the seed demo's records, which this would read whole only for
    /// the caller to refuse it, was a tenth of that import).
    package static func plainContacts(
        in bytes: UnsafeRawBufferPointer, firstIsPlain: (Range<Int>) -> Bool = { _ in true }
    ) -> (ranges: [Range<Int>], identifiers: [String])? {
        guard let pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var reader = StrictJSONReader(pointer, count: bytes.count)
        var ranges: [Range<Int>] = []
        var identifiers: [String] = []
        do {
            var elements = StrictJSONReader.ArrayElements()
            while try reader.nextElement(&elements) {
                reader.skipWhitespace()
                let start = reader.position
                identifiers.append(try checkRecord(&reader))
                ranges.append(start..<reader.position)
                if ranges.count == 1, !firstIsPlain(ranges[0]) { return nil }
            }
            try reader.finish()
        } catch {
            return nil
        }
        return (ranges, identifiers)
    }
}
