import AppGroupStore
import Foundation
import Testing

/// What differs between the app's contacts and the system's, contact by contact and field by field.
///
/// A failed `#expect(app == system)` prints two whole dictionaries, and with thousands of contacts
/// the one field that differs is lost in them; this names it:
/// `contact ada: familyName app="Lovelace" system="King"; only in app: bob; only in system: eve`.
package struct ContactsDifference: CustomStringConvertible, Sendable {
    /// One field of one contact that both sides hold with different values.
    package struct Field: Equatable, Sendable {
        /// The contact's identifier.
        package var identifier: String
        /// The field's JSON key (`givenName`, `phoneNumbers`, …).
        package var field: String
        /// The app's value as compact JSON, or `nil` when the app's contact lacks the field.
        package var app: String?
        /// The system's value as compact JSON, or `nil` when the system's contact lacks the field.
        package var system: String?
    }

    /// Fields that differ, ordered by identifier, then field.
    package private(set) var fields: [Field] = []
    /// Identifiers only the app holds, sorted.
    package private(set) var onlyInApp: [String] = []
    /// Identifiers only the system holds, sorted.
    package private(set) var onlyInSystem: [String] = []

    /// What the two sides are called in the description ("app" and "system" unless given).
    package let sides: (left: String, right: String)

    /// Whether both sides hold the same contacts with the same values.
    package var isEmpty: Bool { fields.isEmpty && onlyInApp.isEmpty && onlyInSystem.isEmpty }

    /// How many contacts or fields the description lists per kind before it says "… and N more".
    package static let listLimit = 20

    /// Compares two sets of contacts keyed by identifier, each a JSON object's text (as `list --json`
    /// prints one contact).
    /// `sides` names the two in the description, e.g. `("before", "after")`.
    package init(
        app: [String: String], system: [String: String], sides: (left: String, right: String) = ("app", "system")
    ) {
        self.sides = sides
        onlyInApp = app.keys.filter { system[$0] == nil }.sorted()
        onlyInSystem = system.keys.filter { app[$0] == nil }.sorted()
        for identifier in app.keys.sorted() {
            guard let appText = app[identifier], let systemText = system[identifier], appText != systemText else {
                continue
            }
            let appFields = Self.fields(of: appText)
            let systemFields = Self.fields(of: systemText)
            for field in Set(appFields.keys).union(systemFields.keys).sorted()
            where appFields[field] != systemFields[field] {
                fields.append(
                    Field(identifier: identifier, field: field, app: appFields[field], system: systemFields[field]))
            }
        }
    }

    /// Compares the output of `contacts-host list --json` with that of `system list --json`.
    package init(appJSON: String, systemJSON: String, sides: (left: String, right: String) = ("app", "system")) throws {
        self.init(
            app: try Self.contactsByID(appJSON, side: sides.left),
            system: try Self.contactsByID(systemJSON, side: sides.right),
            sides: sides)
    }

    /// Compares two sets of records, e.g. the app database's and the system store's, read in process.
    package init(app: [ContactRecord], system: [ContactRecord]) {
        self.init(app: Self.encoded(app), system: Self.encoded(system))
    }

    /// `contact X: field Y app=… system=…; only in app: …; only in system: …`, or "no difference".
    package var description: String {
        guard !isEmpty else { return "no difference" }
        var parts: [String] = []
        let shown = fields.prefix(Self.listLimit).map { field in
            "contact \(field.identifier): \(field.field) \(sides.left)=\(field.app ?? "(absent)") \(sides.right)=\(field.system ?? "(absent)")"
        }
        parts.append(contentsOf: shown)
        if fields.count > Self.listLimit {
            parts.append("… and \(fields.count - Self.listLimit) more differing fields")
        }
        if !onlyInApp.isEmpty { parts.append("only in \(sides.left): " + Self.list(onlyInApp)) }
        if !onlyInSystem.isEmpty { parts.append("only in \(sides.right): " + Self.list(onlyInSystem)) }
        return parts.joined(separator: "; ")
    }

    private static func list(_ identifiers: [String]) -> String {
        let shown = identifiers.prefix(listLimit).joined(separator: ", ")
        return identifiers.count > listLimit ? shown + " … and \(identifiers.count - listLimit) more" : shown
    }

    /// Each top-level field of a contact's JSON object as compact JSON with sorted keys; a text
    /// that is not a JSON object is one field named "(contact)".
    private static func fields(of text: String) -> [String: String] {
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                as? [String: Any]
        else { return ["(contact)": text] }
        var fields: [String: String] = [:]
        for (key, value) in object {
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
            fields[key] = data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
        }
        return fields
    }

    private static func contactsByID(_ json: String, side: String) throws -> [String: String] {
        guard let array = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
            throw ContactsDifferenceError("the \(side) output is not a JSON array of contacts: \(json.prefix(200))")
        }
        var byID: [String: String] = [:]
        for contact in array {
            guard let identifier = contact["identifier"] as? String else {
                throw ContactsDifferenceError("a contact in the \(side) output has no identifier")
            }
            let data = try JSONSerialization.data(
                withJSONObject: contact, options: [.sortedKeys, .withoutEscapingSlashes])
            byID[identifier] = String(decoding: data, as: UTF8.self)
        }
        return byID
    }

    private static func encoded(_ records: [ContactRecord]) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var byID: [String: String] = [:]
        for record in records {
            byID[record.identifier] =
                (try? encoder.encode(record)).map { String(decoding: $0, as: UTF8.self) } ?? "\(record)"
        }
        return byID
    }
}

/// Input that `ContactsDifference` cannot read as contacts.
package struct ContactsDifferenceError: Error, CustomStringConvertible, Sendable {
    /// What was wrong with the input.
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Expects the app and the system to hold the same contacts; a failure names each differing
/// contact and field and the identifiers only one side holds, not two whole dictionaries.
package func expectSameContacts(
    app: [String: String], system: [String: String],
    _ context: String = "the system store differs from the app database",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    record(ContactsDifference(app: app, system: system), context, sourceLocation)
}

/// `expectSameContacts` for records read in process.
package func expectSameContacts(
    app: [ContactRecord], system: [ContactRecord], _ context: String = "the system store differs from the app database",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    record(ContactsDifference(app: app, system: system), context, sourceLocation)
}

private func record(_ difference: ContactsDifference, _ context: String, _ sourceLocation: SourceLocation) {
    guard !difference.isEmpty else { return }
    Issue.record(Comment(rawValue: "\(context): \(difference)"), sourceLocation: sourceLocation)
}
