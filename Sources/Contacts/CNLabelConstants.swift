// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

// Apple's predefined labels for `CNLabeledValue`, with the exact string values
// Apple's Contacts framework stores, so labels round-trip unchanged.

/// The label for a home value (phone number, email address, postal address, URL).
public let CNLabelHome: String = "_$!<Home>!$_"

/// The label for a work value (phone number, email address, postal address, URL).
public let CNLabelWork: String = "_$!<Work>!$_"

/// The label for a school value.
public let CNLabelSchool: String = "_$!<School>!$_"

/// The label for a value that fits no other label.
public let CNLabelOther: String = "_$!<Other>!$_"

/// The label for an iCloud email address.
public let CNLabelEmailiCloud: String = "iCloud"

/// The label for a home page URL address.
public let CNLabelURLAddressHomePage: String = "_$!<HomePage>!$_"

/// The label for an anniversary date.
public let CNLabelDateAnniversary: String = "_$!<Anniversary>!$_"

/// The label for a mobile phone number.
public let CNLabelPhoneNumberMobile: String = "_$!<Mobile>!$_"

/// The label for an iPhone phone number.
public let CNLabelPhoneNumberiPhone: String = "iPhone"

/// The label for an Apple Watch phone number.
public let CNLabelPhoneNumberAppleWatch: String = "AppleWatch"

/// The label for a main phone number.
public let CNLabelPhoneNumberMain: String = "_$!<Main>!$_"

/// The label for a home fax number.
public let CNLabelPhoneNumberHomeFax: String = "_$!<HomeFAX>!$_"

/// The label for a work fax number.
public let CNLabelPhoneNumberWorkFax: String = "_$!<WorkFAX>!$_"

/// The label for a fax number that is neither home nor work.
public let CNLabelPhoneNumberOtherFax: String = "_$!<OtherFAX>!$_"

/// The label for a pager number.
public let CNLabelPhoneNumberPager: String = "_$!<Pager>!$_"

// Relation labels for `CNContactRelation` values: the iOS 9 set, whose stored values Apple Contacts
// writes in vCards (`X-ABLabel:_$!<Manager>!$_`). The later ones (iOS 11 and 13: son, husband,
// colleague, …) are left out because their stored values are not documented; any label string,
// those included, travels unchanged.

/// An assistant.
public let CNLabelContactRelationAssistant: String = "_$!<Assistant>!$_"
/// A manager.
public let CNLabelContactRelationManager: String = "_$!<Manager>!$_"
/// A parent.
public let CNLabelContactRelationParent: String = "_$!<Parent>!$_"
/// A mother.
public let CNLabelContactRelationMother: String = "_$!<Mother>!$_"
/// A father.
public let CNLabelContactRelationFather: String = "_$!<Father>!$_"
/// A child.
public let CNLabelContactRelationChild: String = "_$!<Child>!$_"
/// A brother.
public let CNLabelContactRelationBrother: String = "_$!<Brother>!$_"
/// A sister.
public let CNLabelContactRelationSister: String = "_$!<Sister>!$_"
/// A friend.
public let CNLabelContactRelationFriend: String = "_$!<Friend>!$_"
/// A spouse.
public let CNLabelContactRelationSpouse: String = "_$!<Spouse>!$_"
/// A partner.
public let CNLabelContactRelationPartner: String = "_$!<Partner>!$_"
