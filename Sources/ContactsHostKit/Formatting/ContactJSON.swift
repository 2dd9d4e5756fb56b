import AppGroupStore
import CommandLineToolkit
import ContactsInterop
import Foundation

/// JSON and text renderings of contacts for the CLI.
package enum ContactJSON {
    /// A `--json` report: one line, keys sorted (the one style of every command's `--json`, see
    /// `JSONOutput`), so scripts read it line by line and the output is stable for golden files.
    package static func report<T: Encodable>(_ value: T) throws -> String {
        try encode(value, [.sortedKeys, .withoutEscapingSlashes])
    }

    /// A document (`export`'s file): indented, keys sorted. A file a person may open and diff, not a
    /// report; importing reads either form.
    package static func document<T: Encodable>(_ value: T) throws -> String {
        try encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The export document: `{"format":1,"kind":"contacts","contacts":[…]}`.
    package struct ExportDocument: Codable {
        package var format: Int
        package var kind: String
        package var contacts: [ContactRecord]

        package init(contacts: [ContactRecord]) {
            format = StoreFormat.version
            kind = "contacts"
            self.contacts = contacts
        }
    }

    /// One line for `list`: identifier, name, first phone, first e-mail.
    package static func line(_ record: ContactRecord) -> String {
        var columns = [record.identifier, record.displayName.isEmpty ? "(no name)" : record.displayName]
        if let phone = record.phoneNumbers.first { columns.append(phone.value) }
        if let email = record.emailAddresses.first { columns.append(email.value) }
        return columns.joined(separator: "\t")
    }

    /// A multi-line description for `get`: every field that holds something, in the record's table
    /// order (`ContactRecord.Field`), each under its title.
    package static func detail(_ record: ContactRecord) -> String {
        ContactRecord.Field.allCases.flatMap { lines(of: $0, in: record) }.joined(separator: "\n")
    }

    /// The lines `get` prints for one field (none when it is empty). Exhaustive on purpose (no
    /// `default:`): a field added to the table is printed or the build fails.
    package static func lines(of field: ContactRecord.Field, in record: ContactRecord) -> [String] {
        let title = field.title
        switch field {
        case .identifier:
            return ["\(title): \(record.identifier)"]
        case .givenName:
            // The person's name parts are one line, under "name" (the organization when there are none).
            let name = record.displayName
            return name.isEmpty ? [] : ["name: \(name)"]
        case .namePrefix, .middleName, .familyName, .nameSuffix:
            return []  // in the name line
        case .nickname, .organizationName, .departmentName, .jobTitle, .note, .previousFamilyName,
            .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName:
            let text = field.text(of: record) ?? ""
            return text.isEmpty ? [] : ["\(title): \(text)"]
        case .phoneNumbers, .emailAddresses, .urlAddresses, .contactRelations, .dates:
            return (field.labeledStrings(of: record) ?? []).map {
                "\(title) (\(Labels.display($0.label))): \($0.value)"
            }
        case .postalAddresses:
            return record.postalAddresses.map { address in
                let parts = [address.street, address.city, address.state, address.postalCode, address.country]
                return
                    "\(title) (\(Labels.display(address.label))): \(parts.filter { !$0.isEmpty }.joined(separator: ", "))"
            }
        case .birthday:
            return record.birthday.map { ["\(title): \($0)"] } ?? []
        case .imageData:
            return record.imageData.map { ["\(title): \($0.count) bytes"] } ?? []
        case .contactType:
            return record.contactType.map { ["\(title): \($0)"] } ?? []
        case .nonGregorianBirthday:
            guard let date = record.nonGregorianBirthday else { return [] }
            let year = date.year.map { "\($0)-" } ?? "--"
            let leap = date.isLeapMonth == true ? " (leap month)" : ""
            return ["\(title) (\(date.calendar)): \(year)\(date.month)-\(date.day)\(leap)"]
        case .socialProfiles:
            return record.socialProfiles.map { profile in
                let who = [profile.username, profile.urlString].filter { !$0.isEmpty }.joined(separator: " ")
                return "\(title) (\(Labels.display(profile.label))): \(profile.service) \(who)"
            }
        case .instantMessageAddresses:
            return record.instantMessageAddresses.map { address in
                "\(title) (\(Labels.display(address.label))): \(address.service) \(address.username)"
            }
        }
    }
}

/// Label names on the command line ↔ the Contacts label constants.
package enum Labels {
    /// Short names accepted by `--phone LABEL=NUMBER` and `--email LABEL=ADDRESS`.
    package static let byName: [String: String] = [
        "home": ContactLabel.home, "work": ContactLabel.work, "school": ContactLabel.school,
        "other": ContactLabel.other,
        "mobile": ContactLabel.phoneNumberMobile, "iphone": ContactLabel.phoneNumberiPhone,
        "main": ContactLabel.phoneNumberMain,
        "homefax": ContactLabel.phoneNumberHomeFax, "workfax": ContactLabel.phoneNumberWorkFax,
        "pager": ContactLabel.phoneNumberPager,
        "icloud": ContactLabel.emailiCloud, "homepage": ContactLabel.urlAddressHomePage,
    ]

    /// The stored label for a command-line name (known names map to constants; others are kept as typed).
    package static func stored(_ name: String) -> String {
        byName[name.lowercased()] ?? name
    }

    /// The standard name that `label` is probably a typo of (`moblie` → `mobile`), or nil when it is a
    /// standard name, a stored constant, or not close to any (edit distance as for "did you mean").
    package static func likelyMisspelling(_ label: String) -> String? {
        let lowered = label.lowercased()
        guard byName[lowered] == nil, !byName.values.contains(label) else { return nil }
        return Suggestions.closest(to: lowered, among: byName.keys.sorted()).first
    }

    /// A readable label ("mobile", "work", or a custom label as is).
    package static func display(_ label: String?) -> String {
        guard let label else { return "no label" }
        return ContactLabel.localizedName(for: label)
    }

    /// Parses `[LABEL=]VALUE`; a bare value gets `defaultLabel`. A label may contain spaces
    /// (`"Label With Space=+1 555 0100"`); text before `=` that holds `@`, `:`, `/` or `?` is part of
    /// the value (an address, a URL with a query), not a label.
    package static func labeled(_ text: String, defaultLabel: String) -> ContactRecord.LabeledString {
        if let equals = text.firstIndex(of: "="), equals != text.startIndex {
            let name = String(text[..<equals])
            if !name.contains(where: { "@:/?".contains($0) }), !name.trimmingCharacters(in: .whitespaces).isEmpty {
                return .init(label: stored(name), value: String(text[text.index(after: equals)...]))
            }
        }
        return .init(label: defaultLabel, value: text)
    }
}
