import AppGroupStore
import Foundation

/// A value that cannot be read, at the line of its property: it costs that property (a warning), never the card.
struct VCardCardError: Error {
    var line: Int
    var message: String
}

/// Decodes the lines of one card (between BEGIN:VCARD and END:VCARD) into a `ContactRecord`.
struct VCardCardDecoder {
    let begin: Int
    let lines: [VCardLine]
    private(set) var problems: [VCardProblem] = []
    private(set) var identifierIsGenerated = false
    var version21 = false
    /// Dates and relations read from other writers' extensions (`X-ANNIVERSARY`, `X-SPOUSE`, …):
    /// added after the card's own, less those it already has (sabre/vobject writes `X-ANNIVERSARY`
    /// beside an `X-ABDATE` of the same date).
    var extensionDates: [ContactRecord.LabeledString] = []
    var extensionRelations: [ContactRecord.LabeledString] = []
    /// Android's `X-ANDROID-CUSTOM` nicknames and birthday event: used where the card's own
    /// NICKNAME and BDAY do not already say the same.
    var extensionNicknames: [String] = []
    var extensionBirthday: String?
    /// Roundcube's `X-DEPARTMENT` and KDE's `X-KADDRESSBOOK-X-Department`: the department where ORG
    /// names none.
    var extensionDepartment: String?

    /// The CHARSETs the file's lines declare, most used first: the guess for a quoted-printable
    /// value that names none and is not UTF-8.
    let declaredCharsets: [String]

    init(begin: Int, lines: [VCardLine], declaredCharsets: [String] = []) {
        self.begin = begin
        self.lines = lines
        self.declaredCharsets = declaredCharsets
    }

    /// Properties that carry no contact data and are read silently.
    static let silent: Set<String> = ["VERSION", "PRODID", "REV", "KIND", "X-ABSHOWAS", "X-ABLABEL"]

    /// The card's contact. Problems inside a card cost a line or a property (see `problems`), never
    /// the card; the optional result is kept for callers written when they could.
    mutating func decode() -> ContactRecord? {
        decodeCard()
    }

    mutating func warn(_ property: VCardProperty, _ message: String) {
        problems.append(VCardProblem(line: property.line, message: message, skipped: false))
    }

    private mutating func decodeCard() -> ContactRecord {
        let properties = parsedProperties()
        readVersion(of: properties)
        let groups = groupedExtras(of: properties)
        var card = CardInProgress()
        // A bad value costs its property, never the card: each property is read on its own.
        for property in properties {
            do {
                try read(property, into: &card, groups: groups)
            } catch {
                let failure = error as? VCardCardError ?? VCardCardError(line: property.line, message: "\(error)")
                problems.append(
                    VCardProblem(
                        line: failure.line, message: "\(failure.message); the property was ignored", skipped: false))
            }
        }
        var record = finished(card)
        assignIdentifier(to: &record, uid: card.uid, properties: properties)
        return record
    }

    /// The card's lines as properties; a line that is not one costs only itself (a warning).
    private mutating func parsedProperties() -> [VCardProperty] {
        var properties: [VCardProperty] = []
        for line in lines where !line.text.trimmingCharacters(in: .whitespaces).isEmpty {
            // A bare `FN`, a `#` comment or a 2.1 value continued after a backslash: other readers
            // skip the line, so only the line is lost.
            guard let property = VCardSyntax.parse(line) else {
                problems.append(
                    VCardProblem(
                        line: line.number, message: "line without a colon was ignored: \(Self.excerpt(line.text))",
                        skipped: false))
                continue
            }
            guard !property.name.isEmpty else {
                problems.append(
                    VCardProblem(
                        line: line.number, message: "line without a property name was ignored", skipped: false))
                continue
            }
            properties.append(property)
        }
        return properties
    }

    /// VERSION decides how 2.1's values are read; another version is read as 3.0, with a warning.
    private mutating func readVersion(of properties: [VCardProperty]) {
        let versionProperty = properties.first { $0.name == "VERSION" }
        let version = versionProperty.map { $0.rawValue.trimmingCharacters(in: .whitespaces) } ?? "3.0"
        version21 = version == "2.1"
        if let versionProperty, !["2.1", "3.0", "4.0"].contains(version) {
            warn(versionProperty, "VERSION \(version) is not 2.1, 3.0 or 4.0; the card was read as 3.0")
        }
    }

    /// Apple's grouped extras: itemN.X-ABLabel, itemN.X-ABADR and the sublocality fields.
    private mutating func groupedExtras(of properties: [VCardProperty]) -> GroupedExtras {
        var groups = GroupedExtras()
        for property in properties {
            guard let group = property.group else { continue }
            switch property.name {
            case "X-ABLABEL":
                if let value = textOrWarn(property) { groups.labels[group] = value }
            case "X-ABADR", "X-APPLE-SUBLOCALITY", "X-APPLE-SUBADMINISTRATIVEAREA":
                if let value = textOrWarn(property) { groups.extras[group, default: [:]][property.name] = value }
            default:
                break
            }
        }
        return groups
    }

    /// The record once every property is read: other writers' extensions where the card's own
    /// properties say nothing, the nicknames and notes joined, and a name from FN when N gave none.
    private func finished(_ card: CardInProgress) -> ContactRecord {
        var record = card.record
        var nicknames = card.nicknames
        for date in extensionDates where !record.dates.contains(date) { record.dates.append(date) }
        for relation in extensionRelations where !record.contactRelations.contains(relation) {
            record.contactRelations.append(relation)
        }
        if record.departmentName.isEmpty, let department = extensionDepartment { record.departmentName = department }
        if card.isOrganization { record.contactType = "organization" }
        for nickname in extensionNicknames where !nicknames.contains(nickname) { nicknames.append(nickname) }
        if record.birthday == nil { record.birthday = extensionBirthday }
        record.nickname = nicknames.joined(separator: ", ")
        record.note = card.notes.joined(separator: "\n")

        let hasName = [record.givenName, record.familyName, record.middleName, record.namePrefix, record.nameSuffix]
            .contains { !$0.isEmpty }
        if !hasName, record.organizationName.isEmpty, let formattedName = card.formattedName, !formattedName.isEmpty {
            if card.isOrganization {
                record.organizationName = formattedName
            } else if let space = formattedName.lastIndex(of: " ") {
                record.givenName = String(formattedName[..<space]).trimmingCharacters(in: .whitespaces)
                record.familyName = String(formattedName[formattedName.index(after: space)...])
            } else {
                record.givenName = formattedName
            }
        }
        return record
    }

    /// The UID is kept as written (`urn:uuid:…` too): it is written back the same, so another
    /// system and a re-import here both recognise the contact. Without a usable one the
    /// identifier is generated from the card's lines.
    private mutating func assignIdentifier(to record: inout ContactRecord, uid: String?, properties: [VCardProperty]) {
        if let uid, !uid.isEmpty {
            if (try? IdentifierRules.validate(uid)) != nil {
                record.identifier = uid
            } else if let property = properties.first(where: { $0.name == "UID" }) {
                warn(
                    property,
                    "UID is not a valid identifier (empty, too long or with control characters); "
                        + "a generated identifier was used")
            }
        }
        if record.identifier.isEmpty {
            identifierIsGenerated = true
            record.identifier = Self.generatedIdentifier(lines)
        }
    }

    /// Outlook's `X-MS-TEL;TYPE=…` numbers (assistant, callback, radio, TTY/TDD, company main): the
    /// company's main number is Apple's Main; the others have no Apple label and keep Outlook's
    /// word as a custom label.
    static func outlookPhoneLabel(_ property: VCardProperty) -> String? {
        let types = property.writtenTypes.filter { !["pref", "voice"].contains($0.lowercased()) }
        guard let type = types.first else { return nil }
        return type.lowercased() == "company" ? "_$!<Main>!$_" : type.lowercased()
    }

    /// A stable identifier for a card without a UID: FNV-1a of its lines, so importing the same file
    /// twice gives the same identifiers.
    /// The start of a line for a message (long lines are cut).
    static func excerpt(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
    }

    static func generatedIdentifier(_ lines: [VCardLine]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for line in lines {
            for byte in line.text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0x0A
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "vcard-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Values

    /// The value after transfer decoding (quoted-printable, base64) and character set, still escaped.
    private mutating func decodedValue(_ property: VCardProperty) throws -> String {
        let charset = property.values(of: "CHARSET").first
        if property.isQuotedPrintable {
            let decoded = VCardCharset.string(
                VCardCharset.quotedPrintableBytes(property.rawValue), charset: charset, declared: declaredCharsets)
            if let warning = decoded.warning { warn(property, "\(property.name): \(warning)") }
            return decoded.text
        }
        if property.isBase64 {
            guard let data = VCardCharset.base64(property.rawValue) else {
                throw VCardCardError(line: property.line, message: "\(property.name) has invalid base64 data")
            }
            let decoded = VCardCharset.string([UInt8](data), charset: charset, declared: declaredCharsets)
            if let warning = decoded.warning { warn(property, "\(property.name): \(warning)") }
            return decoded.text
        }
        return property.rawValue
    }

    mutating func text(_ property: VCardProperty) throws -> String {
        VCardText.unescape(try decodedValue(property), version21: version21)
    }

    /// `text(_:)`, or nil with a warning when the value cannot be decoded.
    mutating func textOrWarn(_ property: VCardProperty) -> String? {
        do {
            return try text(property)
        } catch {
            let failure = error as? VCardCardError ?? VCardCardError(line: property.line, message: "\(error)")
            problems.append(
                VCardProblem(
                    line: failure.line, message: "\(failure.message); the property was ignored", skipped: false))
            return nil
        }
    }

    /// A list value (`NICKNAME:Johnny,JD`), its values joined with `VCardText.listSeparator`.
    mutating func listText(_ property: VCardProperty) throws -> String {
        VCardText.listValue(try decodedValue(property), version21: version21)
    }

    mutating func components(_ property: VCardProperty, count: Int, lists: Bool = false) throws -> [String] {
        let value = try decodedValue(property)
        var parts =
            lists
            ? VCardText.listComponents(value, version21: version21)
            : VCardText.components(value, version21: version21)
        while parts.count < count { parts.append("") }
        return parts
    }

    mutating func birthday(_ property: VCardProperty) throws -> String? {
        let raw = try text(property).trimmingCharacters(in: .whitespaces)
        if raw.isEmpty { return nil }
        if property.values(of: "VALUE").first?.lowercased() == "text" {
            warn(property, "BDAY as text (\(raw)) cannot be stored and was ignored")
            return nil
        }
        return try date(property)
    }

    /// The image of a PHOTO, or nil with a warning: a photo that cannot be read costs the photo,
    /// never the contact.
    mutating func photo(_ property: VCardProperty) -> Data? {
        var value = property.rawValue.trimmingCharacters(in: .whitespaces)
        if value.isEmpty { return nil }
        if value.lowercased().hasPrefix("data:") {
            // Two common 4.0 writers escape the comma (`data:image/jpeg;base64\,…`); one server writes
            // a data URI under ENCODING=b. Base64 holds no backslash, so unescaping is safe.
            value = VCardText.unescape(value)
            return dataURIPhoto(property, value)
        }
        if property.isBase64 {
            guard let data = VCardCharset.base64(value) else {
                warn(property, "PHOTO has invalid or truncated base64 data; the photo was dropped and the contact kept")
                return nil
            }
            return data.isEmpty ? nil : data
        }
        if value.contains("://") || property.values(of: "VALUE").first?.lowercased() == "uri" {
            warn(property, "PHOTO refers to \(value) which is not downloaded; ignored")
            return nil
        }
        // Some writers leave out ENCODING; accept a value that is base64 anyway.
        guard let data = VCardCharset.base64(value) else {
            warn(property, "PHOTO is neither base64 data nor a URI; the photo was dropped and the contact kept")
            return nil
        }
        return data.isEmpty ? nil : data
    }

    private mutating func dataURIPhoto(_ property: VCardProperty, _ value: String) -> Data? {
        guard let comma = value.firstIndex(of: ",") else {
            warn(property, "PHOTO has a data URI without a comma; the photo was dropped and the contact kept")
            return nil
        }
        let meta = value[value.index(value.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = String(value[value.index(after: comma)...])
        // RFC 2397: `data:[<mediatype>][;base64],<data>`. Without an image media type the data is
        // not an image (`data:base64,…`, as some clients write it, has the media type "base64" and
        // would be stored as its base64 text): such a photo is dropped, never stored as text.
        let mediaType = meta.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        guard mediaType.hasPrefix("image/"), mediaType.count > "image/".count else {
            let shown = mediaType.isEmpty ? "no media type" : "media type \(mediaType)"
            warn(
                property,
                "PHOTO data URI has \(shown), not image/…, so it holds no image (RFC 2397); "
                    + "the photo was dropped and the contact kept")
            return nil
        }
        if meta.hasSuffix(";base64") {
            guard let data = VCardCharset.base64(payload) else {
                warn(
                    property,
                    "PHOTO data URI has invalid or truncated base64 data; the photo was dropped and the contact kept")
                return nil
            }
            return data.isEmpty ? nil : data
        }
        guard let text = payload.removingPercentEncoding else {
            warn(property, "PHOTO has an invalid data URI; the photo was dropped and the contact kept")
            return nil
        }
        return Data(text.utf8)
    }
}
