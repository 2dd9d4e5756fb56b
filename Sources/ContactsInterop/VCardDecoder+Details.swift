import AppGroupStore
import Foundation

// Reading the less common CNContact values (see VCardEncoder+Details.swift for the shapes),
// including the older Apple and vCard 3.0 forms (`X-AIM:`, `X-SKYPE:`, `IMPP:skype:…`,
// `X-SOCIALPROFILE;type=twitter:…`, `ANNIVERSARY` and `RELATED` in 4.0) and other writers'
// extensions that map onto CNContact fields (docs/vcard.md lists them).

extension VCardCardDecoder {
    /// Properties read by ``decodeDetail(_:label:relationLabel:into:)`` (and KDE's
    /// `X-messaging/…-All`, see ``isDetail(_:)``).
    static let detailProperties: Set<String> = Set(
        [
            "X-PHONETIC-FIRST-NAME", "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME", "X-PHONETIC-ORG",
            "X-MAIDENNAME", "X-ALTBDAY", "X-ABDATE", "ANNIVERSARY", "X-ABRELATEDNAMES", "RELATED", "X-SOCIALPROFILE",
            "IMPP", "X-TWITTER", "X-MS-IMADDRESS", "X-KADDRESSBOOK-X-IMADDRESS", "X-ANDROID-CUSTOM",
            "X-DEPARTMENT", "X-KADDRESSBOOK-X-DEPARTMENT", "X-EVOLUTION-BLOG-URL", "X-KADDRESSBOOK-BLOGFEED",
        ] + legacyMessagingProperties.keys + vendorRelations.keys + vendorAnniversaries)

    static func isDetail(_ name: String) -> Bool {
        detailProperties.contains(name) || kdeMessagingService(name) != nil
    }

    /// Apple's and other vCard 3.0 writers' one-property-per-service instant messaging forms
    /// (Apple, Google's `X-GTALK`, Evolution's `X-GROUPWISE` and `X-MATRIX`, KDE's `X-IRC` and
    /// `X-MEANWHILE`, Roundcube's `X-SKYPE-USERNAME`).
    static let legacyMessagingProperties: [String: String] = [
        "X-AIM": "AIM", "X-ICQ": "ICQ", "X-JABBER": "Jabber", "X-MSN": "MSN", "X-YAHOO": "Yahoo",
        "X-SKYPE": "Skype", "X-SKYPE-USERNAME": "Skype", "X-QQ": "QQ", "X-GOOGLE-TALK": "GoogleTalk",
        "X-GTALK": "GoogleTalk", "X-GADUGADU": "GaduGadu", "X-GROUPWISE": "GroupWise", "X-MATRIX": "Matrix",
        "X-IRC": "IRC", "X-MEANWHILE": "Meanwhile",
    ]

    /// KDE's own IM properties, `X-messaging/<service>-All`, by service word.
    static let kdeMessagingServices: [String: String] = [
        "aim": "AIM", "icq": "ICQ", "xmpp": "Jabber", "msn": "MSN", "yahoo": "Yahoo", "gadu": "GaduGadu",
        "skype": "Skype", "groupwise": "GroupWise", "irc": "IRC", "googletalk": "GoogleTalk", "meanwhile": "Meanwhile",
    ]

    /// The service of a KDE `X-MESSAGING/<service>-ALL` property name (upper-cased), if it is one.
    static func kdeMessagingService(_ name: String) -> String? {
        guard name.hasPrefix("X-MESSAGING/"), name.hasSuffix("-ALL") else { return nil }
        let word = name.dropFirst("X-MESSAGING/".count).dropLast("-ALL".count).lowercased()
        return kdeMessagingServices[word]
    }

    /// Relation properties of other writers and the relation label Apple gives them: Roundcube and
    /// Horde (`X-SPOUSE`, `X-MANAGER`, `X-ASSISTANT`, `X-CHILDREN`), Evolution (`X-EVOLUTION-…`),
    /// Outlook (`X-MS-…;TYPE=N:`) and KDE (`X-KADDRESSBOOK-X-…Name`).
    static let vendorRelations: [String: String] = [
        "X-SPOUSE": VCardLabels.spouse, "X-EVOLUTION-SPOUSE": VCardLabels.spouse, "X-MS-SPOUSE": VCardLabels.spouse,
        "X-KADDRESSBOOK-X-SPOUSESNAME": VCardLabels.spouse,
        "X-MANAGER": VCardLabels.manager, "X-EVOLUTION-MANAGER": VCardLabels.manager,
        "X-MS-MANAGER": VCardLabels.manager, "X-KADDRESSBOOK-X-MANAGERSNAME": VCardLabels.manager,
        "X-ASSISTANT": VCardLabels.assistant, "X-EVOLUTION-ASSISTANT": VCardLabels.assistant,
        "X-MS-ASSISTANT": VCardLabels.assistant, "X-KADDRESSBOOK-X-ASSISTANTSNAME": VCardLabels.assistant,
        "X-CHILDREN": VCardLabels.child, "X-MS-CHILD": VCardLabels.child,
    ]

    /// Anniversary properties of Roundcube and Horde, Evolution, Outlook and KDE: a date labelled
    /// `CNLabelDateAnniversary`, as 4.0's ANNIVERSARY.
    static let vendorAnniversaries = [
        "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-KADDRESSBOOK-X-ANNIVERSARY",
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

    /// TYPE words that label a value or order it; any other TYPE of X-SOCIALPROFILE names its service.
    static let labelTypeWords: Set<String> = ["home", "work", "school", "other", "pref", "internet", "voice"]

    /// The service of a social profile: `X-SERVICE` (this simulator's earlier exports), else the
    /// first TYPE that is not a label word, Apple's spelling for the services it knows
    /// (`type=twitter` is "Twitter") and as written for the others (`type=Mastodon`, `type=github`).
    static func socialService(_ property: VCardProperty) -> String {
        if let service = property.values(of: "X-SERVICE").first { return service }
        guard let type = property.writtenTypes.first(where: { !labelTypeWords.contains($0.lowercased()) }) else {
            return ""
        }
        return socialServices[type.lowercased()] ?? type
    }

    /// An IM address written as a URI (`xmpp:ops@acme.example`): the username after the scheme and
    /// the service the scheme names, the scheme itself for schemes without a known service
    /// (`sip`, `irc`), nothing for Apple's `x-apple:`, which names none.
    static func messagingAddress(_ value: String) -> (username: String, service: String?) {
        guard let colon = value.firstIndex(of: ":"), colon != value.startIndex,
            value[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return (value, nil) }
        let scheme = value[..<colon].lowercased()
        let username = String(value[value.index(after: colon)...])
        if scheme == "x-apple" { return (username, nil) }
        return (username, messagingSchemes[scheme] ?? scheme)
    }

    mutating func decodeDetail(
        _ property: VCardProperty, label: String?, relationLabel: String?, into record: inout ContactRecord
    ) throws {
        switch property.name {
        case "X-PHONETIC-FIRST-NAME": record.phoneticGivenName = try text(property)
        case "X-PHONETIC-MIDDLE-NAME": record.phoneticMiddleName = try text(property)
        case "X-PHONETIC-LAST-NAME": record.phoneticFamilyName = try text(property)
        case "X-PHONETIC-ORG": record.phoneticOrganizationName = try text(property)
        case "X-MAIDENNAME": record.previousFamilyName = try text(property)
        case "X-ALTBDAY":
            if record.nonGregorianBirthday == nil { record.nonGregorianBirthday = try alternateBirthday(property) }
        case "X-ABDATE", "ANNIVERSARY":
            if let date = try date(property) {
                let dateLabel = property.name == "ANNIVERSARY" && label == nil ? VCardLabels.anniversary : label
                record.dates.append(.init(label: dateLabel, value: date))
            }
        case _ where Self.vendorAnniversaries.contains(property.name):
            if let date = try date(property) {
                extensionDates.append(.init(label: VCardLabels.anniversary, value: date))
            }
        case "X-ABRELATEDNAMES":
            let name = try text(property)
            if !name.isEmpty { record.contactRelations.append(.init(label: relationLabel, value: name)) }
        case "RELATED":
            if let name = try related(property) {
                record.contactRelations.append(.init(label: relationLabel, value: name))
            }
        case _ where Self.vendorRelations[property.name] != nil:
            let name = try text(property).trimmingCharacters(in: .whitespaces)
            if !name.isEmpty {
                extensionRelations.append(.init(label: Self.vendorRelations[property.name], value: name))
            }
        case "X-ANDROID-CUSTOM":
            try androidCustom(property)
        case "X-EVOLUTION-BLOG-URL", "X-KADDRESSBOOK-BLOGFEED":
            // A blog's address: a URL labelled as Google Contacts labels blogs (`X-ABLabel:BLOG`);
            // Apple has no blog label. Not added twice when the card's URLs have it already.
            let url = try text(property).trimmingCharacters(in: .whitespaces)
            if !url.isEmpty, !record.urlAddresses.contains(where: { $0.value == url }) {
                record.urlAddresses.append(.init(label: "BLOG", value: url))
            }
        case "X-DEPARTMENT", "X-KADDRESSBOOK-X-DEPARTMENT":
            let department = try text(property).trimmingCharacters(in: .whitespaces)
            if !department.isEmpty, extensionDepartment == nil { extensionDepartment = department }
        case "X-SOCIALPROFILE":
            var profile = ContactRecord.LabeledSocialProfile(label: label)
            profile.urlString = try text(property)
            profile.username = property.values(of: "X-USER").first ?? ""
            profile.userIdentifier = property.values(of: "X-USERID").first ?? ""
            profile.service = Self.socialService(property)
            if profile != ContactRecord.LabeledSocialProfile(label: label) { record.socialProfiles.append(profile) }
        case "X-TWITTER":
            // Evolution and KDE: a Twitter handle, which Apple keeps as a Twitter social profile.
            var profile = ContactRecord.LabeledSocialProfile(label: label)
            profile.username = try text(property)
            profile.service = "Twitter"
            if !profile.username.isEmpty { record.socialProfiles.append(profile) }
        case "IMPP", "X-MS-IMADDRESS", "X-KADDRESSBOOK-X-IMADDRESS":
            // Outlook's and KDE's IM address names no service; a URI's scheme still does.
            let address = Self.messagingAddress(try text(property))
            let service = property.values(of: "X-SERVICE-TYPE").first ?? address.service ?? ""
            if !address.username.isEmpty {
                record.instantMessageAddresses.append(
                    .init(label: label, username: address.username, service: service))
            }
        default:
            if let service = Self.legacyMessagingProperties[property.name] ?? Self.kdeMessagingService(property.name) {
                let username = try text(property)
                if !username.isEmpty {
                    record.instantMessageAddresses.append(.init(label: label, username: username, service: service))
                }
            }
        }
    }

    /// Android's relation types (`ContactsContract.CommonDataKinds.Relation`) and Apple's labels;
    /// the two Apple has none for keep Google's spelling of them (`REFERRED_BY`, `RELATIVE`).
    static let androidRelationTypes: [String: String] = [
        "1": VCardLabels.assistant, "2": "_$!<Brother>!$_", "3": VCardLabels.child, "4": "_$!<Partner>!$_",
        "5": "_$!<Father>!$_", "6": "_$!<Friend>!$_", "7": VCardLabels.manager, "8": "_$!<Mother>!$_",
        "9": "_$!<Parent>!$_", "10": "_$!<Partner>!$_", "11": "REFERRED_BY", "12": "RELATIVE", "13": "_$!<Sister>!$_",
        "14": VCardLabels.spouse,
    ]

    /// Android's own export of what vCard 2.1 has no property for:
    /// `X-ANDROID-CUSTOM:vnd.android.cursor.item/<kind>;data1;data2 (type);data3 (custom label);…`.
    /// Relations and events (anniversary, other, custom, birthday) and nicknames map onto the
    /// contact; other kinds are reported as not supported.
    private mutating func androidCustom(_ property: VCardProperty) throws {
        let parts = try components(property, count: 4)
        let kind = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        let value = parts[1].trimmingCharacters(in: .whitespaces)
        let type = parts[2].trimmingCharacters(in: .whitespaces)
        let custom = parts[3].isEmpty ? nil : parts[3]
        switch kind {
        case "vnd.android.cursor.item/relation":
            guard !value.isEmpty else { return }
            extensionRelations.append(
                .init(label: type == "0" ? custom : Self.androidRelationTypes[type], value: value))
        case "vnd.android.cursor.item/contact_event":
            guard !value.isEmpty else { return }
            switch VCardDates.parse(value, omitYear: false) {
            case .date(let date):
                switch type {
                case "3": extensionBirthday = extensionBirthday ?? date
                case "1": extensionDates.append(.init(label: VCardLabels.anniversary, value: date))
                case "0": extensionDates.append(.init(label: custom, value: date))
                default: extensionDates.append(.init(label: "_$!<Other>!$_", value: date))
                }
            case .partial:
                warn(property, "X-ANDROID-CUSTOM event \(value) has no month and day and was ignored")
            case .invalid:
                throw VCardCardError(line: property.line, message: "X-ANDROID-CUSTOM event \(value) is not a date")
            }
        case "vnd.android.cursor.item/nickname":
            if !value.isEmpty { extensionNicknames.append(value) }
        default:
            warn(property, "X-ANDROID-CUSTOM \(kind) is not supported and was ignored")
        }
    }

    /// A date property's stored value (`YYYY-MM-DD` or `--MM-DD`), nil with a warning for a date
    /// without month and day; an unreadable date throws (the property is dropped with a warning).
    mutating func date(_ property: VCardProperty) throws -> String? {
        let raw = try text(property).trimmingCharacters(in: .whitespaces)
        switch VCardDates.parse(raw, omitYear: property.has("X-APPLE-OMIT-YEAR")) {
        case .date(let date):
            return date
        case .partial:
            warn(property, "\(property.name) \(raw) has no month and day and was ignored")
            return nil
        case .invalid:
            throw VCardCardError(line: property.line, message: "\(property.name) \(raw) is not a date")
        }
    }

    /// The name of a RELATED relation (RFC 6350 §6.6.6). A text value (`VALUE=text`) is the name; a
    /// URI (the default: `urn:uuid:…`, `mailto:…`) is kept as written, since CNContactRelation holds
    /// only a name. KDE's 4.0 export puts the name in the VALUE parameter
    /// (`RELATED;TYPE=spouse;VALUE=Jane:;`); that name is read from there.
    private mutating func related(_ property: VCardProperty) throws -> String? {
        let value = try text(property).trimmingCharacters(in: .whitespaces)
        if let kind = property.values(of: "VALUE").first, !["text", "uri"].contains(kind.lowercased()),
            value.isEmpty || value == ";"
        {
            return kind
        }
        return value.isEmpty ? nil : value
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
