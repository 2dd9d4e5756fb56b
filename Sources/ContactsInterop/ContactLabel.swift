/// Apple's predefined label values (`CNLabelHome` is `"_$!<Home>!$_"`), declared once.
///
/// The Contacts module's public `CNLabel…` constants take their values from here, and so do the
/// layers below it that cannot import Contacts: the vCard codec, and `contacts-host`, which stays
/// off the Contacts module so that its commands do not load FoundationNetworking (which Contacts
/// re-exports) at start-up.
package enum ContactLabel {
    package static let home = "_$!<Home>!$_"
    package static let work = "_$!<Work>!$_"
    package static let school = "_$!<School>!$_"
    package static let other = "_$!<Other>!$_"
    package static let emailiCloud = "iCloud"
    package static let urlAddressHomePage = "_$!<HomePage>!$_"
    package static let dateAnniversary = "_$!<Anniversary>!$_"
    package static let phoneNumberMobile = "_$!<Mobile>!$_"
    package static let phoneNumberiPhone = "iPhone"
    package static let phoneNumberAppleWatch = "AppleWatch"
    package static let phoneNumberMain = "_$!<Main>!$_"
    package static let phoneNumberHomeFax = "_$!<HomeFAX>!$_"
    package static let phoneNumberWorkFax = "_$!<WorkFAX>!$_"
    package static let phoneNumberOtherFax = "_$!<OtherFAX>!$_"
    package static let phoneNumberPager = "_$!<Pager>!$_"
    package static let relationAssistant = "_$!<Assistant>!$_"
    package static let relationManager = "_$!<Manager>!$_"
    package static let relationParent = "_$!<Parent>!$_"
    package static let relationMother = "_$!<Mother>!$_"
    package static let relationFather = "_$!<Father>!$_"
    package static let relationChild = "_$!<Child>!$_"
    package static let relationBrother = "_$!<Brother>!$_"
    package static let relationSister = "_$!<Sister>!$_"
    package static let relationFriend = "_$!<Friend>!$_"
    package static let relationSpouse = "_$!<Spouse>!$_"
    package static let relationPartner = "_$!<Partner>!$_"
    /// `CNSocialProfileServiceTwitter`.
    package static let socialServiceTwitter = "Twitter"

    /// The English name the Contacts app shows for a predefined label ("home", "home fax"); a custom
    /// label unchanged. `CNLabeledValue.localizedString(forLabel:)` answers with this.
    package static func localizedName(for label: String) -> String {
        localizedNames[label] ?? label
    }

    private static let localizedNames: [String: String] = [
        home: "home",
        work: "work",
        school: "school",
        other: "other",
        emailiCloud: "iCloud",
        urlAddressHomePage: "homepage",
        dateAnniversary: "anniversary",
        phoneNumberMobile: "mobile",
        phoneNumberiPhone: "iPhone",
        phoneNumberAppleWatch: "Apple Watch",
        phoneNumberMain: "main",
        phoneNumberHomeFax: "home fax",
        phoneNumberWorkFax: "work fax",
        phoneNumberOtherFax: "other fax",
        phoneNumberPager: "pager",
        relationFather: "father",
        relationMother: "mother",
        relationParent: "parent",
        relationBrother: "brother",
        relationSister: "sister",
        relationChild: "child",
        relationFriend: "friend",
        relationSpouse: "spouse",
        relationPartner: "partner",
        relationAssistant: "assistant",
        relationManager: "manager",
    ]
}
