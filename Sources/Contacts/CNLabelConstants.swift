// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

import ContactsInterop

// Apple's predefined labels for `CNLabeledValue`, with the exact string values
// Apple's Contacts framework stores (declared once, in `ContactLabel`), so labels round-trip unchanged.

/// The label for a home value (phone number, email address, postal address, URL).
public let CNLabelHome: String = ContactLabel.home

/// The label for a work value (phone number, email address, postal address, URL).
public let CNLabelWork: String = ContactLabel.work

/// The label for a school value.
public let CNLabelSchool: String = ContactLabel.school

/// The label for a value that fits no other label.
public let CNLabelOther: String = ContactLabel.other

/// The label for an iCloud email address.
public let CNLabelEmailiCloud: String = ContactLabel.emailiCloud

/// The label for a home page URL address.
public let CNLabelURLAddressHomePage: String = ContactLabel.urlAddressHomePage

/// The label for an anniversary date.
public let CNLabelDateAnniversary: String = ContactLabel.dateAnniversary

/// The label for a mobile phone number.
public let CNLabelPhoneNumberMobile: String = ContactLabel.phoneNumberMobile

/// The label for an iPhone phone number.
public let CNLabelPhoneNumberiPhone: String = ContactLabel.phoneNumberiPhone

/// The label for an Apple Watch phone number.
public let CNLabelPhoneNumberAppleWatch: String = ContactLabel.phoneNumberAppleWatch

/// The label for a main phone number.
public let CNLabelPhoneNumberMain: String = ContactLabel.phoneNumberMain

/// The label for a home fax number.
public let CNLabelPhoneNumberHomeFax: String = ContactLabel.phoneNumberHomeFax

/// The label for a work fax number.
public let CNLabelPhoneNumberWorkFax: String = ContactLabel.phoneNumberWorkFax

/// The label for a fax number that is neither home nor work.
public let CNLabelPhoneNumberOtherFax: String = ContactLabel.phoneNumberOtherFax

/// The label for a pager number.
public let CNLabelPhoneNumberPager: String = ContactLabel.phoneNumberPager

// Relation labels for `CNContactRelation` values: the iOS 9 set, whose stored values Apple Contacts
// writes in vCards (`X-ABLabel:_$!<Manager>!$_`). The later ones (iOS 11 and 13: son, husband,
// colleague, …) are left out because their stored values are not documented; any label string,
// those included, travels unchanged.

/// An assistant.
public let CNLabelContactRelationAssistant: String = ContactLabel.relationAssistant
/// A manager.
public let CNLabelContactRelationManager: String = ContactLabel.relationManager
/// A parent.
public let CNLabelContactRelationParent: String = ContactLabel.relationParent
/// A mother.
public let CNLabelContactRelationMother: String = ContactLabel.relationMother
/// A father.
public let CNLabelContactRelationFather: String = ContactLabel.relationFather
/// A child.
public let CNLabelContactRelationChild: String = ContactLabel.relationChild
/// A brother.
public let CNLabelContactRelationBrother: String = ContactLabel.relationBrother
/// A sister.
public let CNLabelContactRelationSister: String = ContactLabel.relationSister
/// A friend.
public let CNLabelContactRelationFriend: String = ContactLabel.relationFriend
/// A spouse.
public let CNLabelContactRelationSpouse: String = ContactLabel.relationSpouse
/// A partner.
public let CNLabelContactRelationPartner: String = ContactLabel.relationPartner
