// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

// Apple's names for the values of `ContactLabel`, so the mapping below reads as Apple's documentation does.
private let CNLabelHome = ContactLabel.home
private let CNLabelWork = ContactLabel.work
private let CNLabelSchool = ContactLabel.school
private let CNLabelOther = ContactLabel.other
private let CNLabelEmailiCloud = ContactLabel.emailiCloud
private let CNLabelURLAddressHomePage = ContactLabel.urlAddressHomePage
private let CNLabelPhoneNumberMobile = ContactLabel.phoneNumberMobile
private let CNLabelPhoneNumberiPhone = ContactLabel.phoneNumberiPhone
private let CNLabelPhoneNumberAppleWatch = ContactLabel.phoneNumberAppleWatch
private let CNLabelPhoneNumberMain = ContactLabel.phoneNumberMain
private let CNLabelPhoneNumberHomeFax = ContactLabel.phoneNumberHomeFax
private let CNLabelPhoneNumberWorkFax = ContactLabel.phoneNumberWorkFax
private let CNLabelPhoneNumberOtherFax = ContactLabel.phoneNumberOtherFax
private let CNLabelPhoneNumberPager = ContactLabel.phoneNumberPager
private let CNLabelDateAnniversary = ContactLabel.dateAnniversary
private let CNLabelContactRelationAssistant = ContactLabel.relationAssistant
private let CNLabelContactRelationManager = ContactLabel.relationManager
private let CNLabelContactRelationParent = ContactLabel.relationParent
private let CNLabelContactRelationMother = ContactLabel.relationMother
private let CNLabelContactRelationFather = ContactLabel.relationFather
private let CNLabelContactRelationChild = ContactLabel.relationChild
private let CNLabelContactRelationBrother = ContactLabel.relationBrother
private let CNLabelContactRelationSister = ContactLabel.relationSister
private let CNLabelContactRelationFriend = ContactLabel.relationFriend
private let CNLabelContactRelationSpouse = ContactLabel.relationSpouse
private let CNLabelContactRelationPartner = ContactLabel.relationPartner

/// Mapping between vCard TYPE parameters and Apple's Contacts label constants.
enum VCardLabels {
    enum Kind: Sendable {
        case phone, email, url, address
        /// Dates, relations, social profiles, instant messaging: only home/work/school/other map to TYPE.
        case other
    }

    /// TYPE values that carry no label (`pref` orders, the rest describe the medium).
    private static let ignored: Set<String> = ["pref", "voice", "internet", "x400", "msg", "text"]

    /// The label for lower-cased TYPE values, or nil when they name none.
    static func label(forTypes types: [String], kind: Kind) -> String? {
        let set = Set(types).subtracting(ignored)
        guard !set.isEmpty else { return nil }
        switch kind {
        case .phone:
            if set.contains("iphone") { return CNLabelPhoneNumberiPhone }
            if set.contains("applewatch") { return CNLabelPhoneNumberAppleWatch }
            if set.contains("main") { return CNLabelPhoneNumberMain }
            if set.contains("fax") {
                if set.contains("home") { return CNLabelPhoneNumberHomeFax }
                if set.contains("work") { return CNLabelPhoneNumberWorkFax }
                return CNLabelPhoneNumberOtherFax
            }
            if set.contains("cell") || set.contains("mobile") { return CNLabelPhoneNumberMobile }
            if set.contains("pager") { return CNLabelPhoneNumberPager }
        case .url:
            if set.contains("homepage") || set.contains("home-page") { return CNLabelURLAddressHomePage }
        case .email:
            if set.contains("icloud") { return CNLabelEmailiCloud }
        case .address, .other:
            break
        }
        if set.contains("home") { return CNLabelHome }
        if set.contains("work") { return CNLabelWork }
        if set.contains("school") { return CNLabelSchool }
        if set.contains("other") { return CNLabelOther }
        return nil
    }

    static let anniversary = CNLabelDateAnniversary
    static let spouse = CNLabelContactRelationSpouse
    static let manager = CNLabelContactRelationManager
    static let assistant = CNLabelContactRelationAssistant
    static let child = CNLabelContactRelationChild

    /// Relation TYPE values (RFC 6350 §6.6.6's `RELATED` types and the words Android clients and
    /// other writers put in `RELATED` or `X-ABRELATEDNAMES`) and Apple's relation labels, most
    /// specific first: `TYPE=parent,mother` is a mother.
    private static let relationTypes: [(String, String)] = [
        ("mother", CNLabelContactRelationMother), ("father", CNLabelContactRelationFather),
        ("brother", CNLabelContactRelationBrother), ("sister", CNLabelContactRelationSister),
        ("assistant", CNLabelContactRelationAssistant), ("manager", CNLabelContactRelationManager),
        ("partner", CNLabelContactRelationPartner), ("domestic-partner", CNLabelContactRelationPartner),
        ("domestic_partner", CNLabelContactRelationPartner), ("spouse", CNLabelContactRelationSpouse),
        ("child", CNLabelContactRelationChild), ("parent", CNLabelContactRelationParent),
        ("friend", CNLabelContactRelationFriend), ("sweetheart", CNLabelContactRelationPartner),
        // RFC 6350: "agent", someone who acts on the contact's behalf; Apple's nearest is Assistant.
        ("agent", CNLabelContactRelationAssistant),
    ]

    /// The label of a relation from its TYPE values as written: Apple's label where one fits, else
    /// home/work/school/other as for any value, else the first other type word as a custom label
    /// (`TYPE=co-worker` is labelled "co-worker", as written), else nil.
    static func relationLabel(forWrittenTypes written: [String]) -> String? {
        let types = written.map { $0.lowercased() }
        for (type, label) in relationTypes where types.contains(type) { return label }
        if let label = label(forTypes: types, kind: .other) { return label }
        return written.first { !ignored.contains($0.lowercased()) }
    }

    /// The (upper-case) TYPE values that read back as `label`, or nil when the label is not one of
    /// the standard ones vCard can name and must be written as an `itemN.X-ABLabel` group.
    static func types(forLabel label: String, kind: Kind) -> [String]? {
        switch (kind, label) {
        case (_, CNLabelHome): return ["HOME"]
        case (_, CNLabelWork): return ["WORK"]
        case (_, CNLabelOther): return ["OTHER"]
        case (.phone, CNLabelPhoneNumberMobile): return ["CELL"]
        case (.phone, CNLabelPhoneNumberiPhone): return ["IPHONE"]
        case (.phone, CNLabelPhoneNumberMain): return ["MAIN"]
        case (.phone, CNLabelPhoneNumberHomeFax): return ["HOME", "FAX"]
        case (.phone, CNLabelPhoneNumberWorkFax): return ["WORK", "FAX"]
        case (.phone, CNLabelPhoneNumberOtherFax): return ["OTHER", "FAX"]
        case (.phone, CNLabelPhoneNumberPager): return ["PAGER"]
        case (.url, CNLabelURLAddressHomePage): return ["HOMEPAGE"]
        default: return nil
        }
    }
}
