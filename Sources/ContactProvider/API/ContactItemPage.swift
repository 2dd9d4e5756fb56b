import Foundation

/// A position in the enumeration of all items: a generation marker and an offset.
///
/// The marker must stay the same for the whole content enumeration; the offset advances.
///
/// Not `Sendable`, as Apple's SDK declares it (issue 23, item 5).
public struct ContactItemPage: Codable, Equatable {
    /// Identifies the database generation when the content enumeration started.
    public var generationMarker: Data
    /// The offset from the marker (e.g. how many items were enumerated so far).
    public var offset: Int

    /// A page at `offset` of generation `generationMarker`.
    public init(generationMarker: Data, offset: Int) {
        self.generationMarker = generationMarker
        self.offset = offset
    }

    /// The page the system uses to start a new content enumeration (empty marker, offset 0).
    /// (`nonisolated(unsafe)`: an immutable constant, see `ContactItem.Identifier.rootContainer`.)
    nonisolated(unsafe) public static let initialPage = ContactItemPage(generationMarker: Data(), offset: 0)
}

/// A position in the enumeration of changes: a generation marker and an offset.
///
/// Unlike a page, both fields may move as changes are enumerated, across generations.
/// Not `Sendable`, as Apple's SDK declares it.
public struct ContactItemSyncAnchor: Codable, Equatable {
    /// The generation being enumerated for changes.
    public var generationMarker: Data
    /// The offset from that marker (e.g. how many changes were enumerated in the generation).
    public var offset: Int

    /// An anchor at `offset` of generation `generationMarker`.
    public init(generationMarker: Data, offset: Int) {
        self.generationMarker = generationMarker
        self.offset = offset
    }
}
