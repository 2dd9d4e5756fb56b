import AppGroupStore
import AppStores
import Foundation

/// The device's Contacts list for `report --html` (issue 45): the contacts the system received, under
/// the domain's display name, in sections by letter in the user's sort order, a card per contact, and
/// the app's store beside it with every difference marked in words and by the card's border.
///
/// The sort order is `CNContactsUserDefaults.shared().sortOrder`, which is `.familyName` on the
/// simulated device (iOS's default for English): by family, given, then middle name; a contact without
/// a name sorts by its organization (``sortKey(_:)``). Letters are folded (É under E), and anything else
/// goes to `#`, last, as on iOS.
///
/// Bounded for any size of book: each section shows at most ``cardsPerSection`` cards per side and
/// says how many more it holds; the differences table lists at most ``differencesListed``.
package struct ContactListHTML {
    /// Cards drawn per section and side; the rest are counted ("… and N more").
    package static let cardsPerSection = 25
    /// Rows of the differences table.
    package static let differencesListed = 200

    /// What the system shows (the domain's contacts).
    let system: [ContactRecord]
    /// The app's store, or nil when it could not be read (said on the page).
    let app: [ContactRecord]?

    /// One contact that is not the same on both sides.
    struct Difference {
        enum Kind: String {
            case onlySystem = "only in the system"
            case onlyApp = "only in the app (not synced yet)"
            case differs = "differs"
        }
        let kind: Kind
        let record: ContactRecord
        /// The fields that differ (for `.differs`).
        let fields: [String]
    }

    /// Compares the sides by identifier and by the fields a card shows; nil app: no differences.
    func differences() -> (byID: [String: Difference], ordered: [Difference]) {
        guard let app else { return ([:], []) }
        var byID: [String: Difference] = [:]
        var appByID: [String: ContactRecord] = [:]
        appByID.reserveCapacity(app.count)
        for record in app { appByID[record.identifier] = record }
        var systemIDs = Set<String>()
        systemIDs.reserveCapacity(system.count)
        for record in system {
            systemIDs.insert(record.identifier)
            guard let other = appByID[record.identifier] else {
                byID[record.identifier] = Difference(kind: .onlySystem, record: record, fields: [])
                continue
            }
            let mine = Self.fields(record)
            let theirs = Self.fields(other)
            if !mine.elementsEqual(theirs, by: { $0.0 == $1.0 && $0.1 == $1.1 }) {
                let labels = Set(mine.map(\.0) + theirs.map(\.0)).sorted().filter { label in
                    mine.filter { $0.0 == label }.map(\.1) != theirs.filter { $0.0 == label }.map(\.1)
                }
                byID[record.identifier] = Difference(kind: .differs, record: record, fields: labels)
            }
        }
        for record in app where !systemIDs.contains(record.identifier) {
            byID[record.identifier] = Difference(kind: .onlyApp, record: record, fields: [])
        }
        // Each key once (folding is the costly part), not twice per comparison.
        let ordered = byID.values.map { (key: Self.sortKey($0.record), difference: $0) }
            .sorted { $0.key < $1.key }.map(\.difference)
        return (byID, ordered)
    }

    /// Writes the section: summary, differences, the letter index, then each letter's cards side by side.
    func write(displayName: String, to page: HTMLPageWriter) throws {
        let (differences, ordered) = differences()
        try page.write("<section id=\"contacts\">\n<h2>Contacts: \(HTMLPage.escape(displayName))</h2>\n")
        var summary = "<p>The system holds \(system.count) contact\(system.count == 1 ? "" : "s") of this domain"
        if let app {
            summary += "; the app's store \(app.count). "
            let counts = Dictionary(grouping: ordered, by: \.kind).mapValues(\.count)
            summary +=
                ordered.isEmpty
                ? "✓ They agree."
                : "≠ \(ordered.count) difference\(ordered.count == 1 ? "" : "s"): "
                    + "\(counts[.onlySystem] ?? 0) only in the system, \(counts[.onlyApp] ?? 0) only in the app, "
                    + "\(counts[.differs] ?? 0) with different fields."
        } else {
            summary += "; the app's store could not be read, so nothing is compared."
        }
        summary += " Sorted by family name (CNContactsUserDefaults.sortOrder). Each section shows at most "
        summary += "\(Self.cardsPerSection) cards per side.</p>\n"
        try page.write(summary)
        if !ordered.isEmpty { try page.write(Self.differenceTable(ordered)) }

        let systemSections = Self.sections(system)
        let appSections = app.map(Self.sections) ?? [:]
        let letters = Set(systemSections.keys).union(appSections.keys).sorted(by: Self.letterOrder)
        var index = "<p class=\"index\">"
        for letter in letters {
            index +=
                "<a href=\"#letter-\(Self.anchor(letter))\">\(letter)</a>&nbsp;(\(systemSections[letter]?.count ?? 0)) "
        }
        try page.write(index + "</p>\n")
        for letter in letters {
            var block = "<div class=\"section-letter\" id=\"letter-\(Self.anchor(letter))\">\(letter)</div>\n"
            block += "<div class=\"side\">"
            block += column(
                "System (what Contacts shows)", systemSections[letter] ?? [], differences: differences, app: false)
            if app != nil {
                block += column("App's store", appSections[letter] ?? [], differences: differences, app: true)
            }
            try page.write(block + "</div>\n")
        }
        try page.write("</section>\n")
    }

    /// The device's own contacts (the user's address book, `<App Group>/device/contacts`) as a list of
    /// its own: sections by letter in the same order, at most ``cardsPerSection`` cards each.
    static func writeDeviceList(_ records: [ContactRecord], to page: HTMLPageWriter) throws {
        try page.write("<section id=\"device\">\n<h2>The device's own contacts: \(records.count)</h2>\n")
        guard !records.isEmpty else {
            try page.write("<p class=\"note\">The device has no contacts of its own.</p>\n</section>\n")
            return
        }
        let sections = sections(records)
        for letter in sections.keys.sorted(by: letterOrder) {
            let members = sections[letter] ?? []
            var block = "<div class=\"section-letter\">\(letter) (\(members.count))</div>\n"
            for record in members.prefix(cardsPerSection) { block += card(record, difference: nil, appSide: false) }
            if members.count > cardsPerSection {
                block += "<p class=\"note\">… and \(members.count - cardsPerSection) more</p>\n"
            }
            try page.write(block)
        }
        try page.write("</section>\n")
    }

    /// One side of one section: at most ``cardsPerSection`` cards, then the count of the rest.
    private func column(_ title: String, _ records: [ContactRecord], differences: [String: Difference], app: Bool)
        -> String
    {
        var out = "<div><h3>\(title): \(records.count)</h3>\n"
        for record in records.prefix(Self.cardsPerSection) {
            out += Self.card(record, difference: differences[record.identifier], appSide: app)
        }
        if records.count > Self.cardsPerSection {
            out += "<p class=\"note\">… and \(records.count - Self.cardsPerSection) more</p>\n"
        }
        return out + "</div>"
    }

    /// A card: the name, the difference in words, then each field.
    static func card(_ record: ContactRecord, difference: Difference?, appSide: Bool) -> String {
        let name = record.displayName.isEmpty ? "No Name" : record.displayName
        var cardClass = "card"
        var mark = ""
        if let difference {
            switch difference.kind {
            case .differs:
                cardClass += " differs"
                mark = "≠ differs: " + difference.fields.joined(separator: ", ")
            case .onlySystem, .onlyApp:
                cardClass += " missing"
                mark = "∅ " + difference.kind.rawValue
            }
        }
        var out =
            "<div class=\"\(cardClass)\" data-id=\"\(HTMLPage.escape(record.identifier))\"><strong>\(HTMLPage.escape(name))</strong>"
        if !mark.isEmpty { out += " <span class=\"mark\">\(HTMLPage.escape(mark))</span>" }
        let differing = Set(difference?.fields ?? [])
        let fields = fields(record)
        if !fields.isEmpty {
            out += "<dl>"
            for (label, value) in fields {
                let flag = differing.contains(label) ? "≠ " : ""
                out += "<dt>\(flag)\(HTMLPage.escape(label))</dt><dd>\(HTMLPage.escape(value))</dd>"
            }
            out += "</dl>"
        }
        return out + "</div>\n"
    }

    /// The differences, one row each, at most ``differencesListed``.
    static func differenceTable(_ ordered: [Difference]) -> String {
        var out = "<h3>Differences</h3>\n<table class=\"differences\"><tr><th>contact</th><th>identifier</th>"
        out += "<th>difference</th></tr>\n"
        for difference in ordered.prefix(differencesListed) {
            let name = difference.record.displayName.isEmpty ? "No Name" : difference.record.displayName
            let what =
                difference.kind == .differs
                ? "≠ differs: " + difference.fields.joined(separator: ", ") : "∅ " + difference.kind.rawValue
            out +=
                "<tr class=\"warn\"><td>\(HTMLPage.escape(name))</td><td><code>\(HTMLPage.escape(difference.record.identifier))</code></td>"
            out += "<td>\(HTMLPage.escape(what))</td></tr>\n"
        }
        if ordered.count > differencesListed {
            out += "<tr><td colspan=\"3\" class=\"note\">… and \(ordered.count - differencesListed) more</td></tr>\n"
        }
        return out + "</table>\n"
    }

    /// The fields a card shows, as (label, value), in a fixed order.
    static func fields(_ record: ContactRecord) -> [(String, String)] {
        var out: [(String, String)] = []
        func add(_ label: String, _ value: String) { if !value.isEmpty { out.append((label, value)) } }
        add("nickname", record.nickname)
        add(
            "organization",
            [record.organizationName, record.departmentName].filter { !$0.isEmpty }.joined(separator: ", "))
        add("job title", record.jobTitle)
        for phone in record.phoneNumbers { add("phone" + label(phone.label), phone.value) }
        for email in record.emailAddresses { add("email" + label(email.label), email.value) }
        for address in record.postalAddresses {
            add(
                "address" + label(address.label),
                [address.street, address.city, address.state, address.postalCode, address.country]
                    .filter { !$0.isEmpty }.joined(separator: ", "))
        }
        for url in record.urlAddresses { add("url" + label(url.label), url.value) }
        add("birthday", record.birthday ?? "")
        add("note", record.note.count > 200 ? String(record.note.prefix(200)) + "…" : record.note)
        return out
    }

    /// ` (mobile)` for `_$!<Mobile>!$_` or `mobile`; empty without a label.
    static func label(_ label: String?) -> String {
        guard var label, !label.isEmpty else { return "" }
        if label.hasPrefix("_$!<"), label.hasSuffix(">!$_") { label = String(label.dropFirst(4).dropLast(4)) }
        return " (\(label.lowercased()))"
    }

    /// Records by section letter, each section in sort order.
    static func sections(_ records: [ContactRecord]) -> [String: [ContactRecord]] {
        let keyed = records.map { (key: sortKey($0), record: $0) }.sorted { $0.key < $1.key }
        var out: [String: [ContactRecord]] = [:]
        for (key, record) in keyed { out[letter(key), default: []].append(record) }
        return out
    }

    /// The sort key in family-name order, as `CNContact.comparator(forNameSortOrder: .familyName)` sorts
    /// (Sources/Contacts/CNContact+Sorting.swift; this module does not link Contacts): the non-empty of
    /// family, given and middle name, else the organization; case and diacritics ignored, numbers by value
    /// (digit runs padded), nameless contacts last; the identifier breaks ties, so the page is the same
    /// every time.
    static func sortKey(_ record: ContactRecord) -> String {
        var parts = [record.familyName, record.givenName, record.middleName].filter { !$0.isEmpty }
        if parts.isEmpty, !record.organizationName.isEmpty { parts = [record.organizationName] }
        guard !parts.isEmpty else { return "\u{10FFFF}\u{1}" + record.identifier }
        let folded = parts.map {
            padDigits($0.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil))
        }
        return folded.joined(separator: "\u{1}") + "\u{2}" + record.identifier
    }

    /// `item 2` → `item 000000000002`: digit runs compare by value as plain text.
    static func padDigits(_ text: String) -> String {
        guard text.utf8.contains(where: { (0x30...0x39).contains($0) }) else { return text }
        var out = ""
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            if !digits.isEmpty {
                out += String(repeating: "0", count: max(0, 12 - digits.count)) + digits
                digits = ""
            }
            out.append(character)
        }
        if !digits.isEmpty { out += String(repeating: "0", count: max(0, 12 - digits.count)) + digits }
        return out
    }

    /// `A`…`Z` for a key starting with that letter, else `#`.
    static func letter(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return "#" }
        return String(first).uppercased()
    }

    /// Letters first, `#` last.
    static func letterOrder(_ a: String, _ b: String) -> Bool {
        if a == "#" { return false }
        if b == "#" { return true }
        return a < b
    }

    static func anchor(_ letter: String) -> String { letter == "#" ? "other" : letter }
}
