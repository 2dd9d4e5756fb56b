/// The bytes of one contact's JSON object as a store read them (see ``ContactRecord/verbatim``).
///
/// It stands beside a record's fields and never decides anything about the record: every
/// `VerbatimJSON` equals every other and hashes to nothing, so two records with the same fields
/// are equal whether or not either carries its bytes. (Not an optional in the record: `Optional`'s
/// own `==` and hashing would tell a record with bytes from one without.)
package struct VerbatimJSON: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// One JSON object, `{` to `}`, that the store's strict reader decoded to the record's fields;
    /// nil when the record has none (it was made or changed in memory).
    ///
    /// A slice: a content page copies its lines in one piece that its records share (one allocation
    /// a page, not one a contact). A record kept after its page keeps that piece, until a write to
    /// the record forgets its bytes.
    package private(set) var bytes: ArraySlice<UInt8>?

    /// No bytes.
    package init() {
        bytes = nil
    }

    /// The bytes of `object`; none when they are not one object from `{` to `}` (a line with
    /// surrounding white space is encoded afresh instead).
    package init(_ object: UnsafeRawBufferPointer) {
        bytes = Self.isObject(object) ? ArraySlice(object) : nil
    }

    /// The bytes of `object`, shared with whoever else holds the piece it is a slice of; none when
    /// they are not one object from `{` to `}`.
    package init(sharing object: ArraySlice<UInt8>) {
        bytes = Self.isObject(object) ? object : nil
    }

    /// Whether `bytes` run from `{` to `}` (what the strict reader accepted is then one object).
    private static func isObject(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        bytes.count >= 2 && bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}")
    }

    /// Drops the bytes: the record no longer holds exactly what they say.
    package mutating func forget() {
        if bytes != nil { bytes = nil }
    }

    package static func == (_: VerbatimJSON, _: VerbatimJSON) -> Bool { true }

    package func hash(into hasher: inout Hasher) {}

    /// `none`, or `N bytes` (a record's printed form stays readable).
    package var description: String { bytes.map { "\($0.count) bytes" } ?? "none" }

    package var debugDescription: String { description }
}
