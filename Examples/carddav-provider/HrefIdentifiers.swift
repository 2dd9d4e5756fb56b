// Which contact identifier each server resource holds, kept in the App Group so a deletion
// (which the server reports by href only) can name the contact it removes.

import Foundation

/// A persistent map from a resource's href to the identifier its card was given (its UID, or the
/// href itself for a card without one).
///
/// It only records facts about the server, so writing it ahead of a commit is harmless: a page or
/// batch that is not committed is fetched again and finds the same entries. That is also why a
/// removed resource keeps its entry (marked removed) instead of losing it: the system may replay
/// the same anchor, and the replay must name the same identifiers.
struct HrefIdentifiers {
    private struct Entry: Codable {
        var identifier: String
        var removed: Bool
    }

    private var entries: [String: Entry]
    private let file: URL

    /// Loads the map from `identifiers.json` under `directory` (empty if absent or unreadable:
    /// the next content enumeration rebuilds it).
    init(directory: URL) {
        file = directory.appendingPathComponent("identifiers.json")
        entries =
            (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode([String: Entry].self, from: $0) } ?? [:]
    }

    /// The identifier of the card last seen at `href` (also after its removal).
    func identifier(of href: String) -> String? { entries[href]?.identifier }

    /// Records that `href` holds the card `identifier`.
    mutating func record(_ identifier: String, at href: String) {
        entries[href] = Entry(identifier: identifier, removed: false)
    }

    /// Records that the server removed `href`.
    mutating func markRemoved(_ href: String) {
        entries[href]?.removed = true
    }

    /// Keeps only entries whose href is in `hrefs` (a full listing of the collection).
    mutating func keep(only hrefs: Set<String>) {
        entries = entries.filter { hrefs.contains($0.key) }
    }

    /// Whether a resource other than `href` still holds `identifier` (a card moved to another resource).
    func isHeldElsewhere(_ identifier: String, than href: String) -> Bool {
        entries.contains { $0.key != href && !$0.value.removed && $0.value.identifier == identifier }
    }

    /// Writes the map atomically (write to a temporary file, then rename).
    func save() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try JSONEncoder().encode(entries)
        try data.write(to: file, options: .atomic)
    }
}
