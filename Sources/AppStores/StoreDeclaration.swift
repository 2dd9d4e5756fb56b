import AppGroupStore
import Foundation

/// What an adapter's store keeps, as its `hello` reply declares it — the exec counterpart of a
/// Swift backend's `comparable(_:)`:
///
/// - `"fields": ["givenName", "familyName", "phoneNumbers"]`: the contact JSON keys the store
///   holds (the identifier always); the others are not compared;
/// - `"labels": "provider"`: the store keeps no labels, the provider chooses them (the seed demo
///   calls every phone "Mobile"), so labels are not compared; `"store"` (the default) compares them.
public struct StoreDeclaration: Equatable, Sendable {
    /// The contact JSON keys the store keeps; nil: every field.
    public var fields: Set<String>?
    /// Whether labels are the provider's choice rather than the store's.
    public var labelsAreProviders: Bool

    /// Every field, labels included: what a reply without `"fields"` or `"labels"` declares.
    public static let everything = StoreDeclaration(fields: nil, labelsAreProviders: false)

    /// A declaration of `fields` (nil: every field), with or without labels.
    public init(fields: Set<String>?, labelsAreProviders: Bool) {
        self.fields = fields
        self.labelsAreProviders = labelsAreProviders
    }

    /// The contact JSON keys a declaration may name.
    public static var knownFields: [String] { ContactRecord.Field.allCases.map(\.rawValue) }

    /// Reads `"fields"` and `"labels"` from a `hello` reply of `adapter`.
    ///
    /// - Throws: ``ConformanceBackendError`` naming the adapter, the value and what is allowed.
    init(hello: [String: Any], adapter: String) throws {
        self = .everything
        if let value = hello["fields"] {
            guard let names = value as? [String] else {
                throw ConformanceBackendError(
                    "\(adapter): hello's \"fields\" must be an array of contact JSON keys, got \(value)")
            }
            let unknown = names.filter { !Self.knownFields.contains($0) }
            guard unknown.isEmpty else {
                throw ConformanceBackendError(
                    "\(adapter): hello's \"fields\" names no contact field: \(unknown.joined(separator: ", ")) "
                        + "(known: \(Self.knownFields.joined(separator: ", ")))")
            }
            fields = Set(names)
        }
        if let value = hello["labels"] {
            guard let labels = value as? String, labels == "provider" || labels == "store" else {
                throw ConformanceBackendError(
                    "\(adapter): hello's \"labels\" must be \"provider\" (the provider chooses them: not compared) "
                        + "or \"store\" (the default), got \(value)")
            }
            labelsAreProviders = labels == "provider"
        }
    }

    /// `contact` reduced to what the store keeps: undeclared fields dropped, labels dropped when
    /// they are the provider's.
    public func comparable(_ contact: ContactRecord) -> ContactRecord {
        guard self != .everything,
            let encoded = try? JSONEncoder().encode(contact),
            var object = (try? JSONSerialization.jsonObject(with: encoded)) as? [String: Any]
        else { return contact }
        if let fields { object = object.filter { $0.key == "identifier" || fields.contains($0.key) } }
        if labelsAreProviders {
            for (key, value) in object {
                guard let entries = value as? [[String: Any]] else { continue }
                object[key] = entries.map { $0.filter { $0.key != "label" } }
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object),
            let reduced = try? JSONDecoder().decode(ContactRecord.self, from: data)
        else { return contact }
        return reduced
    }
}
