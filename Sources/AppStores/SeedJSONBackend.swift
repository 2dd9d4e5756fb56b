import AppGroupStore
import Foundation

/// The seed demo's store: `ContactItems.json` in the App Group, an array of
/// `{identifier, firstName, lastName, phoneNumber?, emailAddress?}` (what its app writes).
///
/// Only those fields exist there, so contacts are compared on them alone (labels are the
/// provider's business: the seed demo calls every phone "Mobile").
public final class SeedJSONBackend: ConformanceBackend {
    /// One entry of the file, with the seed demo's key names.
    struct Item: Codable, Equatable {
        var identifier: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var emailAddress: String?
    }

    /// The file the kit writes.
    public let path: String
    /// The whole file while ``beginTransientFailure()`` has left half of it in place.
    package var heldDuringFailure: Data?

    /// `file` relative to the App Group root (default `ContactItems.json`), or absolute.
    public init(appGroup: AppGroup, file: String = "ContactItems.json") {
        path = file.hasPrefix("/") ? file : appGroup.path + "/" + file
    }

    public func reset() throws { try write([]) }

    public func add(_ contact: ConformanceContact) throws {
        var items = try read()
        items.removeAll { $0.identifier == contact.identifier }
        items.append(Self.item(contact))
        try write(items)
    }

    /// One write of the file with all of them appended.
    public func add(contentsOf contacts: [ConformanceContact]) throws {
        let adding = Set(contacts.map(\.identifier))
        try write(try read().filter { !adding.contains($0.identifier) } + contacts.map(Self.item))
    }

    public func update(_ contact: ConformanceContact) throws {
        var items = try read()
        guard let index = items.firstIndex(where: { $0.identifier == contact.identifier }) else {
            throw ConformanceBackendError("\(path): no contact \(contact.identifier) to update")
        }
        items[index] = Self.item(contact)
        try write(items)
    }

    public func delete(identifier: String) throws {
        try write(try read().filter { $0.identifier != identifier })
    }

    public func contacts() throws -> [ConformanceContact] {
        try read().map { item in
            var record = ConformanceContact(identifier: item.identifier)
            record.givenName = item.firstName
            record.familyName = item.lastName
            if let phone = item.phoneNumber { record.phoneNumbers = [.init(label: nil, value: phone)] }
            if let email = item.emailAddress { record.emailAddresses = [.init(label: nil, value: email)] }
            return record
        }
    }

    public func comparable(_ contact: ConformanceContact) -> ConformanceContact {
        var record = ConformanceContact(identifier: contact.identifier)
        record.givenName = contact.givenName
        record.familyName = contact.familyName
        record.phoneNumbers = contact.phoneNumbers.prefix(1).map { .init(label: nil, value: $0.value) }
        record.emailAddresses = contact.emailAddresses.prefix(1).map { .init(label: nil, value: $0.value) }
        return record
    }

    private static func item(_ contact: ConformanceContact) -> Item {
        Item(
            identifier: contact.identifier, firstName: contact.givenName, lastName: contact.familyName,
            phoneNumber: contact.phoneNumbers.first?.value, emailAddress: contact.emailAddresses.first?.value)
    }

    private func read() throws -> [Item] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        do {
            return try JSONDecoder().decode([Item].self, from: data)
        } catch {
            throw ConformanceBackendError("\(path): not a seed-demo ContactItems.json array (\(error))")
        }
    }

    private func write(_ items: [Item]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(items).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConformanceBackendError("\(path): could not write (\(error))")
        }
    }
}
