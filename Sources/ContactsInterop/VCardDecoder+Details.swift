import AppGroupStore
import Foundation

// Reading the less common CNContact values (see VCardEncoder+Details.swift for the shapes),
// including the older Apple and vCard 3.0 forms (`X-AIM:`, `X-SKYPE:`, `IMPP:skype:…`,
// `X-SOCIALPROFILE;type=twitter:…`, `ANNIVERSARY` in 4.0).

extension VCardCardDecoder {
    /// Properties read by ``decodeDetail(_:label:into:)``.
    static let detailProperties: Set<String> = Set(
        [
            "X-PHONETIC-FIRST-NAME", "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME", "X-PHONETIC-ORG",
            "X-MAIDENNAME", "X-ALTBDAY", "X-ABDATE", "ANNIVERSARY", "X-ABRELATEDNAMES", "X-SOCIALPROFILE", "IMPP",
        ] + legacyMessagingProperties.keys)

    /// Apple's and other vCard 3.0 writers' one-property-per-service instant messaging forms.
    static let legacyMessagingProperties: [String: String] = [
        "X-AIM": "AIM", "X-ICQ": "ICQ", "X-JABBER": "Jabber", "X-MSN": "MSN", "X-YAHOO": "Yahoo",
        "X-SKYPE": "Skype", "X-SKYPE-USERNAME": "Skype", "X-QQ": "QQ", "X-GOOGLE-TALK": "GoogleTalk",
        "X-GADUGADU": "GaduGadu",
    ]

    /// IMPP URI schemes and the services they name.
    static let messagingSchemes: [String: String] = [
        "aim": "AIM", "icq": "ICQ", "xmpp": "Jabber", "msnim": "MSN", "ymsgr": "Yahoo", "skype": "Skype",
        "qq": "QQ", "gtalk": "GoogleTalk", "gg": "GaduGadu", "facebook": "Facebook",
    ]

    /// Social services by lower-cased TYPE value (Apple writes `X-SOCIALPROFILE;type=twitter`).
    static let socialServices: [String: String] = [
        "facebook": "Facebook", "flickr": "Flickr", "linkedin": "LinkedIn", "myspace": "MySpace",
        "sinaweibo": "SinaWeibo", "tencentweibo": "TencentWeibo", "twitter": "Twitter", "yelp": "Yelp",
        "gamecenter": "GameCenter",
    ]

    mutating func decodeDetail(_ property: VCardProperty, label: String?, into record: inout ContactRecord) throws {
        switch property.name {
        case "X-PHONETIC-FIRST-NAME": record.phoneticGivenName = try text(property)
        case "X-PHONETIC-MIDDLE-NAME": record.phoneticMiddleName = try text(property)
        case "X-PHONETIC-LAST-NAME": record.phoneticFamilyName = try text(property)
        case "X-PHONETIC-ORG": record.phoneticOrganizationName = try text(property)
        case "X-MAIDENNAME": record.previousFamilyName = try text(property)
        case "X-ALTBDAY":
            if record.nonGregorianBirthday == nil { record.nonGregorianBirthday = try alternateBirthday(property) }
        case "X-ABDATE", "ANNIVERSARY":
            let raw = try text(property).trimmingCharacters(in: .whitespaces)
            switch VCardDates.parse(raw, omitYear: property.has("X-APPLE-OMIT-YEAR")) {
            case .date(let date):
                let dateLabel = property.name == "ANNIVERSARY" && label == nil ? "_$!<Anniversary>!$_" : label
                record.dates.append(.init(label: dateLabel, value: date))
            case .partial:
                warn(property, "\(property.name) \(raw) has no month and day and was ignored")
            case .invalid:
                throw VCardCardError(line: property.line, message: "\(property.name) \(raw) is not a date")
            }
        case "X-ABRELATEDNAMES":
            let name = try text(property)
            if !name.isEmpty { record.contactRelations.append(.init(label: label, value: name)) }
        case "X-SOCIALPROFILE":
            var profile = ContactRecord.LabeledSocialProfile(label: label)
            profile.urlString = try text(property)
            profile.username = property.values(of: "X-USER").first ?? ""
            profile.userIdentifier = property.values(of: "X-USERID").first ?? ""
            profile.service =
                property.values(of: "X-SERVICE").first
                ?? property.types.lazy.compactMap { Self.socialServices[$0] }.first ?? ""
            if profile != ContactRecord.LabeledSocialProfile(label: label) { record.socialProfiles.append(profile) }
        case "IMPP":
            var username = try text(property)
            var scheme: String?
            if let colon = username.firstIndex(of: ":"),
                username[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                scheme = username[..<colon].lowercased()
                username = String(username[username.index(after: colon)...])
            }
            let service =
                property.values(of: "X-SERVICE-TYPE").first ?? scheme.flatMap { Self.messagingSchemes[$0] } ?? ""
            if !username.isEmpty {
                record.instantMessageAddresses.append(.init(label: label, username: username, service: service))
            }
        default:
            if let service = Self.legacyMessagingProperties[property.name] {
                let username = try text(property)
                if !username.isEmpty {
                    record.instantMessageAddresses.append(.init(label: label, username: username, service: service))
                }
            }
        }
    }

    /// `X-ALTBDAY;CALSCALE=chinese[;X-ERA=78][;X-IS-LEAP-MONTH=TRUE]:YYYY-MM-DD` (or `--MM-DD`).
    private mutating func alternateBirthday(_ property: VCardProperty) throws -> ContactRecord.NonGregorianDate? {
        let raw = try text(property).trimmingCharacters(in: .whitespaces)
        let invalid = VCardCardError(line: property.line, message: "X-ALTBDAY \(raw) is not a date")
        let calendar = (property.values(of: "CALSCALE").first ?? "").lowercased()
        guard !calendar.isEmpty else {
            warn(property, "X-ALTBDAY without CALSCALE was ignored")
            return nil
        }
        let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
        let year: Int?
        let rest: ArraySlice<Substring>
        if parts.count == 4, parts[0].isEmpty, parts[1].isEmpty {
            (year, rest) = (nil, parts[2...])
        } else if parts.count == 3, let y = Int(parts[0]) {
            (year, rest) = (y, parts[1...])
        } else {
            throw invalid
        }
        guard let month = Int(rest[rest.startIndex]), let day = Int(rest[rest.startIndex + 1]),
            (1...13).contains(month), (1...31).contains(day)
        else { throw invalid }
        let era = property.values(of: "X-ERA").first.flatMap { Int($0) }
        let leap = property.values(of: "X-IS-LEAP-MONTH").first.map { $0.uppercased() == "TRUE" }
        let date = ContactRecord.NonGregorianDate(
            calendar: calendar, era: era, year: year, month: month, day: day, isLeapMonth: leap)
        if let problem = date.problem {
            warn(property, "\(problem); X-ALTBDAY was ignored")
            return nil
        }
        return date
    }
}
