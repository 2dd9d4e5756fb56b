// Which contact identifier each server resource holds, kept in the App Group so a deletion
// (which the server reports by href only) can name the contact it removes.

import Foundation

/// A persistent map from a resource's href to the identifier its card was given (its UID, or the
/// href itself for a card without one).
///
/// It only records facts about the server, so writing it ahead of a commit is harmless: a page or
/// batch that is not committed is fetched again and writes the same entries.
struct HrefIdentifiers {
    private(set) var identifiers: [String: String]
    private let file: URL

    /// Loads the map from `state/identifiers.json` under `directory` (empty if absent or unreadable:
    /// the next content enumeration rebuilds it).
    init(directory: URL) {
        file = directory.appendingPathComponent("identifiers.json")
        identifiers = (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }

    subscript(href: String) -> String? {
        get { identifiers[href] }
        set { identifiers[href] = newValue }
    }

    /// Keeps only entries whose href is in `hrefs` (a full listing of the collection).
    mutating func keep(only hrefs: Set<String>) {
        identifiers = identifiers.filter { hrefs.contains($0.key) }
    }

    /// Whether some href other than `href` holds `identifier` (a card moved to another resource).
    func isHeldElsewhere(_ identifier: String, than href: String) -> Bool {
        identifiers.contains { $0.key != href && $0.value == identifier }
    }

    /// Writes the map atomically (write to a temporary file, then rename).
    func save() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try JSONEncoder().encode(identifiers)
        try data.write(to: file, options: .atomic)
    }
}
