import AppGroupStore
import Foundation

/// Writes `ContactRecord`s as vCard 3.0 or 4.0 text.
struct VCardEncoder {
    let version: VCardVersion
    private var bytes: [UInt8] = []
    /// The next `itemN` group number within the current card.
    private var nextGroup = 1

    init(version: VCardVersion) {
        self.version = version
    }

    var output: String { String(decoding: bytes, as: UTF8.self) }

    /// Type values are upper case in 3.0 (as Apple writes them) and lower case in 4.0 (as RFC 6350).
    private func typeParameter(_ types: [String]) -> String {
        "TYPE=" + types.map { version == .v3 ? $0.uppercased() : $0.lowercased() }.joined(separator: ",")
    }

    mutating func write(_ record: ContactRecord) {
        nextGroup = 1
        line("BEGIN:VCARD")
        line("VERSION:\(version.rawValue)")
        line("PRODID:-//Contact Provider Simulator//ContactsInterop//EN")
        if !record.identifier.isEmpty { line("UID:" + VCardText.escape(record.identifier)) }
        // Family and given names are single values (commas escaped): Android's and Java readers
        // (ez-vcard, in DAVx5) read those components as one value and keep only the first of a
        // list, so "Richter, James" written as the list `Richter,James` came back as "Richter".
        // Additional names, prefixes and suffixes are lists in both RFCs and in those readers.
        line(
            "N:"
                + ([record.familyName, record.givenName].map(VCardText.escape)
                + [record.middleName, record.namePrefix, record.nameSuffix].map(VCardText.escapeList))
                .joined(separator: ";"))
        line("FN:" + VCardText.escape(record.displayName))
        if !record.nickname.isEmpty { line("NICKNAME:" + VCardText.escapeList(record.nickname)) }
        if !record.organizationName.isEmpty || !record.departmentName.isEmpty {
            var org = VCardText.escape(record.organizationName)
            if !record.departmentName.isEmpty { org += ";" + Self.organizationalUnits(record.departmentName) }
            line("ORG:" + org)
        }
        if !record.jobTitle.isEmpty { line("TITLE:" + VCardText.escape(record.jobTitle)) }
        for phone in record.phoneNumbers where !phone.value.isEmpty {
            labeled("TEL", label: phone.label, kind: .phone, value: VCardText.escapeSingleValue(phone.value))
        }
        for email in record.emailAddresses where !email.value.isEmpty {
            labeled(
                "EMAIL", label: email.label, kind: .email, value: VCardText.escape(email.value),
                extraTypes: version == .v3 ? ["INTERNET"] : [])
        }
        for address in record.postalAddresses {
            writeAddress(address)
        }
        for url in record.urlAddresses where !url.value.isEmpty {
            labeled("URL", label: url.label, kind: .url, value: VCardText.escapeSingleValue(url.value))
        }
        if let birthday = record.birthday, let date = BirthdayFormat.parse(birthday) {
            // A birthday without a year: in 3.0 Apple's `BDAY;X-APPLE-OMIT-YEAR=1604:1604-MM-DD`, since
            // RFC 2426 has no year-less date and readers that follow it (Android's, ez-vcard) drop
            // `--MM-DD`, while Apple, DAVx5 and sabre/vobject read the parameter; in 4.0 RFC 6350's
            // `--MMDD`, which those readers understand.
            let (parameter, value) = dateValue(year: date.year, month: date.month, day: date.day)
            line("BDAY" + parameter + ":" + value)
        }
        if !record.note.isEmpty { line("NOTE:" + VCardText.escape(record.note)) }
        if let image = record.imageData, !image.isEmpty {
            let (type, mediaType) = Self.imageType(image)
            let base64 = image.base64EncodedString()
            switch version {
            case .v3: line("PHOTO;ENCODING=b;TYPE=\(type):" + base64)
            case .v4: line("PHOTO:data:\(mediaType);base64," + base64)
            }
        }
        writeDetails(record)
        line("END:VCARD")
    }

    /// The department as ORG units after the organization: "Engineering, iOS" (how several units
    /// read back) is written as the units `Engineering;iOS`. A department that would not read back
    /// the same that way (an empty unit) is written as one escaped unit.
    static func organizationalUnits(_ department: String) -> String {
        let units = department.components(separatedBy: VCardText.listSeparator)
        guard units.count > 1, !units.contains(where: \.isEmpty) else { return VCardText.escape(department) }
        return units.map(VCardText.escape).joined(separator: ";")
    }

    private mutating func writeAddress(_ address: ContactRecord.LabeledPostalAddress) {
        let components = [
            "", "", address.street, address.city, address.state, address.postalCode, address.country,
        ]
        let extras = [
            ("X-ABADR", address.isoCountryCode), ("X-APPLE-SUBLOCALITY", address.subLocality),
            ("X-APPLE-SUBADMINISTRATIVEAREA", address.subAdministrativeArea),
        ].filter { !$0.1.isEmpty }
        guard components.contains(where: { !$0.isEmpty }) || !extras.isEmpty else { return }
        let value = components.map(VCardText.escape).joined(separator: ";")
        let group = labeled("ADR", label: address.label, kind: .address, value: value, forceGroup: !extras.isEmpty)
        for (name, extra) in extras {
            line("\(group!).\(name):" + VCardText.escape(extra))
        }
    }

    /// Writes a labelled property: standard labels as TYPE values, other labels in an
    /// `itemN.X-ABLabel` group as Apple Contacts does. Returns the group used, if any.
    @discardableResult
    mutating func labeled(
        _ name: String, label: String?, kind: VCardLabels.Kind, value: String, extraTypes: [String] = [],
        forceGroup: Bool = false
    ) -> String? {
        var types = extraTypes
        var customLabel: String?
        if let label, !label.isEmpty {
            if let standard = VCardLabels.types(forLabel: label, kind: kind) {
                types += standard
            } else {
                customLabel = label
            }
        }
        var group: String?
        if customLabel != nil || forceGroup {
            group = "item\(nextGroup)"
            nextGroup += 1
        }
        var head = group.map { $0 + "." + name } ?? name
        if !types.isEmpty { head += ";" + typeParameter(types) }
        line(head + ":" + value)
        if let group, let customLabel { line("\(group).X-ABLabel:" + VCardText.escape(customLabel)) }
        return group
    }

    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// The 3.0 TYPE and the media type of an image, from its signature (JPEG when unknown).
    static func imageType(_ data: Data) -> (String, String) {
        let head = [UInt8](data.prefix(8))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ("PNG", "image/png") }
        if head.starts(with: [0x47, 0x49, 0x46, 0x38]) { return ("GIF", "image/gif") }
        if head.count >= 4, head.starts(with: [0x52, 0x49, 0x46, 0x46]) { return ("WEBP", "image/webp") }
        if head.starts(with: [0x00, 0x00, 0x00]), head.count >= 8, head[4...7] == [0x66, 0x74, 0x79, 0x70] {
            return ("HEIC", "image/heic")
        }
        return ("JPEG", "image/jpeg")
    }

    /// Appends one content line, folded so no physical line exceeds 75 octets (a continuation line's
    /// leading space counts) and no UTF-8 sequence is split, followed by CRLF. ASCII control
    /// characters other than tab (U+0000–U+001F, U+007F) are left out: both RFCs forbid them in
    /// values and other readers stop or garble at them. (Line breaks were escaped already.)
    mutating func line(_ text: String) {
        var utf8 = Array(text.utf8)
        if utf8.contains(where: Self.isForbiddenControl) { utf8.removeAll(where: Self.isForbiddenControl) }
        var start = 0
        var limit = 75
        while utf8.count - start > limit {
            var end = start + limit
            while end > start, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.append(contentsOf: utf8[start..<end])
            bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = end
            limit = 74
        }
        bytes.append(contentsOf: utf8[start...])
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}
