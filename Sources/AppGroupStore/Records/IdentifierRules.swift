import Foundation

/// Rules for identifiers that the store accepts, and the one identity rule for them.
///
/// **Identity**: two identifiers name the same contact when they are canonically equivalent
/// Unicode ("café" composed or as "e" + U+0301). That is the rule Swift's `String` `==` and hashing
/// already apply in every map of this package, of the Contacts API and of a provider developer's own
/// code (`[String: CNContact]`), so it is the only rule every path can agree on without wrapping each
/// key. To make the bytes on disk agree with it too, every identifier is normalised to NFC where it
/// enters a store (`JournaledStore` writes and lookups, `AppDatabase`), so the journal's byte search,
/// the snapshot's bytewise order and the in-memory maps can never disagree.
public enum IdentifierRules {
    /// `identifier` in Unicode Normalization Form C: the form every store keeps (see the identity rule).
    public static func normalized(_ identifier: String) -> String {
        // ASCII is already NFC; skip Foundation's conversion on the common path.
        if isASCII(identifier) { return identifier }
        return identifier.precomposedStringWithCanonicalMapping
    }

    /// Whether every byte of `text` is ASCII: a loop over its UTF-8 bytes, not `utf8.allSatisfy`,
    /// which a debug build runs through the generic iterator (5% of a debug import).
    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
    }

    /// `record` with its identifier in NFC.
    public static func normalized(_ record: ContactRecord) -> ContactRecord {
        if isASCII(record.identifier) { return record }
        let identifier = normalized(record.identifier)
        guard
            identifier.utf8.count != record.identifier.utf8.count
                || !identifier.utf8.elementsEqual(record.identifier.utf8)
        else { return record }
        var copy = record
        copy.identifier = identifier
        return copy
    }

    /// Whether `text` holds a control character (below U+0020, or U+007F): a loop over its UTF-8
    /// bytes, not `unicodeScalars.contains(where:)`, which a debug build runs through the generic
    /// iterator, twice for every contact imported. Each such character is one byte, and every byte of
    /// a longer UTF-8 sequence is 0x80 or above, so the bytes tell exactly what the scalars would.
    static func hasControlCharacter(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Through the base pointer: a debug build inlines a pointer's subscript, and calls a
            // buffer's (with its bounds check) for each byte, twice per contact an import writes.
            guard let base = bytes.baseAddress else { return false }
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = base[index]
                if byte < 0x20 || byte == 0x7F { return true }
                index += 1
            }
            return false
        }
    }

    /// The longest identifier accepted, in UTF-8 bytes.
    public static let maximumLength = 256

    /// Throws `StoreError.invalidIdentifier` unless `identifier` can be stored safely.
    public static func validate(_ identifier: String) throws {
        if identifier.isEmpty {
            throw StoreError.invalidIdentifier(identifier, reason: "it is empty")
        }
        if identifier.utf8.count > maximumLength {
            throw StoreError.invalidIdentifier(identifier, reason: "it is longer than \(maximumLength) bytes")
        }
        if hasControlCharacter(identifier) {
            throw StoreError.invalidIdentifier(identifier, reason: "it contains a control character")
        }
    }
}
