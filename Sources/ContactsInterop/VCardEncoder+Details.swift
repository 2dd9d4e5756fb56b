import AppGroupStore
import Foundation

// The less common CNContact values, written the way Apple Contacts exports them where it has a
// way (X-PHONETIC-*, X-MAIDENNAME, X-ABShowAs, X-ABDATE and X-ABRELATEDNAMES with their
// X-ABLabel groups, X-SOCIALPROFILE;type=…;x-user=…, IMPP with X-SERVICE-TYPE and the service's
// own URI scheme, X-ALTBDAY), so every value a provider can set survives a round trip.

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
            // As Apple writes it: `X-SOCIALPROFILE;type=twitter;x-user=johnny:https://twitter.com/johnny`.
            var name = "X-SOCIALPROFILE"
            if !profile.service.isEmpty {
                if let type = Self.socialType(profile.service) {
                    name += ";type=" + type
                } else {
                    // A service TYPE cannot carry (a comma, a label word such as "home"): the parameter
                    // this simulator wrote before, which it still reads.
                    name += ";x-service=" + Self.quotedParameter(profile.service)
                }
            }
            for (parameter, value) in [("x-user", profile.username), ("x-userid", profile.userIdentifier)]
            where !value.isEmpty {
                name += ";\(parameter)=" + Self.parameterValue(value)
            }
            labeled(name, label: profile.label, kind: .other, value: VCardText.escapeSingleValue(profile.urlString))
        }
        for address in record.instantMessageAddresses {
            var name = "IMPP"
            if !address.service.isEmpty { name += ";X-SERVICE-TYPE=" + Self.parameterValue(address.service) }
            labeled(
                name, label: address.label, kind: .other,
                value: Self.messagingScheme(address.service) + ":" + VCardText.escapeSingleValue(address.username))
        }
    }

    /// The URI scheme an IMPP value of `service` is written with: the registered (or long-used)
    /// scheme of the service, so readers that go by the scheme (RFC 6350 §6.4.3) know the service;
    /// `x-apple` (Apple's) only for services that have none.
    static func messagingScheme(_ service: String) -> String {
        let known: [String: String] = [
            "aim": "aim", "icq": "icq", "jabber": "xmpp", "googletalk": "xmpp", "facebook": "xmpp", "msn": "msnim",
            "yahoo": "ymsgr", "skype": "skype", "irc": "irc", "matrix": "matrix",
        ]
        let lower = service.lowercased()
        if let scheme = known[lower] { return scheme }
        return registeredMessagingSchemes.contains(lower) ? lower : "x-apple"
    }

    /// Schemes that are their own service (an address read as `sip:alice@example.com` has the service "sip").
    static let registeredMessagingSchemes: Set<String> = [
        "sip", "sips", "xmpp", "irc", "ircs", "matrix", "aim", "icq", "skype", "msnim", "ymsgr", "tel", "sms",
    ]

    /// The TYPE value for a social service, or nil when TYPE cannot carry it: Apple's lower-case
    /// word for the services it knows (`twitter`), other services as written (`Mastodon`).
    static func socialType(_ value: String) -> String? {
        let service = asWritten(value)
        let lower = service.lowercased()
        if VCardCardDecoder.socialServices[lower] == service { return lower }
        guard parameterValue(service) == service, VCardCardDecoder.socialServices[lower] == nil,
            !VCardCardDecoder.labelTypeWords.contains(lower)
        else { return nil }
        return service
    }

    /// `value` less the control characters `line(_:)` leaves out (all but tab and line breaks).
    private static func asWritten(_ value: String) -> String {
        var written = value
        written.unicodeScalars.removeAll {
            ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0x7F
        }
        return written
    }

    /// A parameter value as Apple writes it, bare, or in double quotes when it holds a character a
    /// bare value cannot (`,` `;` `:` `"`, a line break, a caret, or leading or trailing spaces).
    /// Decided on the value as written: other control characters are left out by `line(_:)`.
    static func parameterValue(_ value: String) -> String {
        let written = asWritten(value)
        let bare = written.unicodeScalars.allSatisfy { !"\",;:^\n\r".unicodeScalars.contains($0) }
        return bare && !written.isEmpty && written.trimmingCharacters(in: .whitespaces) == written
            ? value : quotedParameter(value)
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
