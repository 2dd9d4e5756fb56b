import Foundation

extension CNLabeledValue {
    /// Returns a human-readable form of a label, for display.
    ///
    /// Apple's predefined labels map to the English strings the Contacts app shows:
    /// ``CNLabelHome`` → "home", ``CNLabelPhoneNumberMobile`` → "mobile",
    /// ``CNLabelPhoneNumberHomeFax`` → "home fax", and so on. Custom labels are
    /// returned unchanged. This stand-in always answers in English.
    ///
    /// Call it as on iOS, naming any value type: `CNLabeledValue<NSString>.localizedString(forLabel: label)`.
    ///
    /// - Parameter label: A label, usually one of the `CNLabel…` constants.
    /// - Returns: The display string for the label.
    public class func localizedString(forLabel label: String) -> String {
        localizedLabelNames[label] ?? label
    }
}

/// The English display names of Apple's predefined labels.
private let localizedLabelNames: [String: String] = [
    CNLabelHome: "home",
    CNLabelWork: "work",
    CNLabelSchool: "school",
    CNLabelOther: "other",
    CNLabelEmailiCloud: "iCloud",
    CNLabelURLAddressHomePage: "homepage",
    CNLabelDateAnniversary: "anniversary",
    CNLabelPhoneNumberMobile: "mobile",
    CNLabelPhoneNumberiPhone: "iPhone",
    CNLabelPhoneNumberAppleWatch: "Apple Watch",
    CNLabelPhoneNumberMain: "main",
    CNLabelPhoneNumberHomeFax: "home fax",
    CNLabelPhoneNumberWorkFax: "work fax",
    CNLabelPhoneNumberOtherFax: "other fax",
    CNLabelPhoneNumberPager: "pager",
    CNLabelContactRelationFather: "father",
    CNLabelContactRelationMother: "mother",
    CNLabelContactRelationParent: "parent",
    CNLabelContactRelationBrother: "brother",
    CNLabelContactRelationSister: "sister",
    CNLabelContactRelationChild: "child",
    CNLabelContactRelationFriend: "friend",
    CNLabelContactRelationSpouse: "spouse",
    CNLabelContactRelationPartner: "partner",
    CNLabelContactRelationAssistant: "assistant",
    CNLabelContactRelationManager: "manager",
]
