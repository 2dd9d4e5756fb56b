// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

// ContactsInterop sits below the Contacts module (Contacts' `CNContactVCardSerialization` uses this
// codec), so it spells Apple's label values itself; a unit test checks they equal Contacts' constants.
private let CNLabelHome = "_$!<Home>!$_"
private let CNLabelWork = "_$!<Work>!$_"
private let CNLabelSchool = "_$!<School>!$_"
private let CNLabelOther = "_$!<Other>!$_"
private let CNLabelEmailiCloud = "iCloud"
private let CNLabelURLAddressHomePage = "_$!<HomePage>!$_"
private let CNLabelPhoneNumberMobile = "_$!<Mobile>!$_"
private let CNLabelPhoneNumberiPhone = "iPhone"
private let CNLabelPhoneNumberAppleWatch = "AppleWatch"
private let CNLabelPhoneNumberMain = "_$!<Main>!$_"
private let CNLabelPhoneNumberHomeFax = "_$!<HomeFAX>!$_"
private let CNLabelPhoneNumberWorkFax = "_$!<WorkFAX>!$_"
private let CNLabelPhoneNumberOtherFax = "_$!<OtherFAX>!$_"
private let CNLabelPhoneNumberPager = "_$!<Pager>!$_"
private let CNLabelDateAnniversary = "_$!<Anniversary>!$_"
private let CNLabelContactRelationAssistant = "_$!<Assistant>!$_"
private let CNLabelContactRelationManager = "_$!<Manager>!$_"
private let CNLabelContactRelationParent = "_$!<Parent>!$_"
private let CNLabelContactRelationMother = "_$!<Mother>!$_"
private let CNLabelContactRelationFather = "_$!<Father>!$_"
private let CNLabelContactRelationChild = "_$!<Child>!$_"
private let CNLabelContactRelationBrother = "_$!<Brother>!$_"
private let CNLabelContactRelationSister = "_$!<Sister>!$_"
private let CNLabelContactRelationFriend = "_$!<Friend>!$_"
private let CNLabelContactRelationSpouse = "_$!<Spouse>!$_"
private let CNLabelContactRelationPartner = "_$!<Partner>!$_"

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
