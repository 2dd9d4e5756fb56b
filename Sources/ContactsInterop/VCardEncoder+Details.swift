import AppGroupStore
import Foundation

// The less common CNContact values, written the way Apple Contacts exports them where it has a
// way (X-PHONETIC-*, X-MAIDENNAME, X-ABShowAs, X-ABDATE and X-ABRELATEDNAMES with their
// X-ABLabel groups, X-SOCIALPROFILE, IMPP with X-SERVICE-TYPE, X-ALTBDAY), so every value a
// provider can set survives a round trip.

extension VCardEncoder {
    mutating func writeDetails(_ record: ContactRecord) {
        if record.contactType == "organization" {
            line(version == .v3 ? "X-ABShowAs:COMPANY" : "KIND:org")
        }
        for (name, value) in [
            ("X-PHONETIC-FIRST-NAME", record.phoneticGivenName), ("X-PHONETIC-MIDDLE-NAME", record.phoneticMiddleName),
            ("X-PHONETIC-LAST-NAME", record.phoneticFamilyName), ("X-PHONETIC-ORG", record.phoneticOrganizationName),
            ("X-MAIDENNAME", record.previousFamilyName),
        ] where !value.isEmpty {
            line(name + ":" + VCardText.escape(value))
        }
        if let date = record.nonGregorianBirthday {
            var head = "X-ALTBDAY;CALSCALE=" + Self.quotedParameter(date.calendar)
            if let era = date.era { head += ";X-ERA=\(era)" }
            if let leap = date.isLeapMonth { head += ";X-IS-LEAP-MONTH=" + (leap ? "TRUE" : "FALSE") }
            let monthDay = String(format: "%02d-%02d", date.month, date.day)
            line(head + ":" + (date.year.map { String(format: "%04d-", $0) } ?? "--") + monthDay)
        }
        for date in record.dates {
            guard let parsed = BirthdayFormat.parse(date.value) else { continue }
            let (parameter, value) = dateValue(year: parsed.year, month: parsed.month, day: parsed.day)
            labeled("X-ABDATE" + parameter, label: date.label, kind: .other, value: value)
        }
        for relation in record.contactRelations where !relation.value.isEmpty {
            labeled("X-ABRELATEDNAMES", label: relation.label, kind: .other, value: VCardText.escape(relation.value))
        }
        for profile in record.socialProfiles {
            var name = "X-SOCIALPROFILE"
            for (parameter, value) in [
                ("X-SERVICE", profile.service), ("X-USER", profile.username), ("X-USERID", profile.userIdentifier),
            ] where !value.isEmpty {
                name += ";\(parameter)=" + Self.quotedParameter(value)
            }
            labeled(name, label: profile.label, kind: .other, value: VCardText.escapeSingleValue(profile.urlString))
        }
        for address in record.instantMessageAddresses {
            var name = "IMPP"
            if !address.service.isEmpty { name += ";X-SERVICE-TYPE=" + Self.quotedParameter(address.service) }
            labeled(
                name, label: address.label, kind: .other,
                value: "x-apple:" + VCardText.escapeSingleValue(address.username))
        }
    }

    /// A date's value, and the parameter that marks a missing year in 3.0 (Apple's `X-APPLE-OMIT-YEAR`).
    func dateValue(year: Int?, month: Int, day: Int) -> (String, String) {
        switch (version, year) {
        case (.v3, let year?): return ("", BirthdayFormat.format(year: year, month: month, day: day))
        case (.v3, nil): return (";X-APPLE-OMIT-YEAR=1604", String(format: "1604-%02d-%02d", month, day))
        case (.v4, let year?): return ("", String(format: "%04d%02d%02d", year, month, day))
        case (.v4, nil): return ("", String(format: "--%02d%02d", month, day))
        }
    }

    /// A parameter value in double quotes, with RFC 6868 caret escapes for `^`, `"` and line breaks.
    static func quotedParameter(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "^": out += "^^"
            case "\"": out += "^'"
            case "\n": out += "^n"
            case "\r": break
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
