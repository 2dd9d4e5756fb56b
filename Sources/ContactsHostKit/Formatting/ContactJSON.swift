import AppGroupStore
import CommandLineToolkit
import Contacts
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

    /// A multi-line description for `get`.
    package static func detail(_ record: ContactRecord) -> String {
        var lines = ["identifier: \(record.identifier)"]
        let name = record.displayName
        if !name.isEmpty { lines.append("name: \(name)") }
        if !record.nickname.isEmpty { lines.append("nickname: \(record.nickname)") }
        if !record.organizationName.isEmpty { lines.append("organization: \(record.organizationName)") }
        if !record.departmentName.isEmpty { lines.append("department: \(record.departmentName)") }
        if !record.jobTitle.isEmpty { lines.append("job title: \(record.jobTitle)") }
        for phone in record.phoneNumbers { lines.append("phone (\(Labels.display(phone.label))): \(phone.value)") }
        for email in record.emailAddresses { lines.append("email (\(Labels.display(email.label))): \(email.value)") }
        for url in record.urlAddresses { lines.append("url (\(Labels.display(url.label))): \(url.value)") }
        for address in record.postalAddresses {
            let parts = [address.street, address.city, address.state, address.postalCode, address.country].filter {
                !$0.isEmpty
            }
            lines.append("address (\(Labels.display(address.label))): \(parts.joined(separator: ", "))")
        }
        if let birthday = record.birthday { lines.append("birthday: \(birthday)") }
        if !record.note.isEmpty { lines.append("note: \(record.note)") }
        if record.imageData != nil { lines.append("image: \(record.imageData!.count) bytes") }
        lines += details(record)
        return lines.joined(separator: "\n")
    }

    /// The less common values, one line each, so `get` shows everything a provider sent.
    static func details(_ record: ContactRecord) -> [String] {
        var lines: [String] = []
        if let type = record.contactType { lines.append("type: \(type)") }
        for (name, value) in [
            ("previous family name", record.previousFamilyName), ("phonetic given name", record.phoneticGivenName),
            ("phonetic middle name", record.phoneticMiddleName), ("phonetic family name", record.phoneticFamilyName),
            ("phonetic organization", record.phoneticOrganizationName),
        ] where !value.isEmpty {
            lines.append("\(name): \(value)")
        }
        if let date = record.nonGregorianBirthday {
            let year = date.year.map { "\($0)-" } ?? "--"
            lines.append(
                "birthday (\(date.calendar)): \(year)\(date.month)-\(date.day)\(date.isLeapMonth == true ? " (leap month)" : "")"
            )
        }
        for date in record.dates { lines.append("date (\(Labels.display(date.label))): \(date.value)") }
        for relation in record.contactRelations {
            lines.append("related (\(Labels.display(relation.label))): \(relation.value)")
        }
        for profile in record.socialProfiles {
            let who = [profile.username, profile.urlString].filter { !$0.isEmpty }.joined(separator: " ")
            lines.append("social (\(Labels.display(profile.label))): \(profile.service) \(who)")
        }
        for address in record.instantMessageAddresses {
            lines.append("im (\(Labels.display(address.label))): \(address.service) \(address.username)")
        }
        return lines
    }
}

/// Label names on the command line ↔ the Contacts label constants.
package enum Labels {
    /// Short names accepted by `--phone LABEL=NUMBER` and `--email LABEL=ADDRESS`.
    package static let byName: [String: String] = [
        "home": CNLabelHome, "work": CNLabelWork, "school": CNLabelSchool, "other": CNLabelOther,
        "mobile": CNLabelPhoneNumberMobile, "iphone": CNLabelPhoneNumberiPhone, "main": CNLabelPhoneNumberMain,
        "homefax": CNLabelPhoneNumberHomeFax, "workfax": CNLabelPhoneNumberWorkFax, "pager": CNLabelPhoneNumberPager,
        "icloud": CNLabelEmailiCloud, "homepage": CNLabelURLAddressHomePage,
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
        return CNLabeledValue<NSString>.localizedString(forLabel: label)
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
