import Foundation

/// The seed demo's database design, ported as written: one JSON array in one file, decoded in
/// full, appended to, re-encoded and rewritten for every add (ContactItemDatabase.save).
enum NaiveBaseline {
    /// The seed's record (`ContactItemJSON`).
    struct ContactItemJSON: Codable, Hashable {
        var identifier: String = UUID().uuidString
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var emailAddress: String?
    }

    /// Writes a database of `count` records.
    static func create(at url: URL, count: Int) throws {
        let items = (0..<count).map { index in
            ContactItemJSON(
                firstName: "Given\(index)", lastName: "Family\(index % 97)", phoneNumber: "+1 555 \(1_000_000 + index)",
                emailAddress: "person\(index)@example.com")
        }
        try JSONEncoder().encode(items).write(to: url)
    }

    /// The seed's add: read everything, append one, write everything.
    static func add(at url: URL) throws {
        let data = try Data(contentsOf: url)
        var items = try JSONDecoder().decode([ContactItemJSON].self, from: data)
        items.append(
            ContactItemJSON(firstName: "New", lastName: "Person", phoneNumber: "+1 555 0000000", emailAddress: nil))
        try JSONEncoder().encode(items).write(to: url, options: .atomic)
    }
}
