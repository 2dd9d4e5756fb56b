import Contacts
import Foundation
import Testing

@Suite("CNLabeledValue")
struct CNLabeledValueTests {
    @Test("init stores the label and the value and makes a fresh UUID identifier")
    func initStoresLabelAndValue() {
        let first = CNLabeledValue(label: CNLabelWork, value: "a@b.c" as NSString)
        let second = CNLabeledValue(label: CNLabelWork, value: "a@b.c" as NSString)
        #expect(first.label == CNLabelWork)
        #expect(first.value == "a@b.c" as NSString)
        #expect((first.value as String) == "a@b.c")
        #expect(UUID(uuidString: first.identifier) != nil)
        #expect(first.identifier != second.identifier)
    }

    @Test("A nil label is allowed")
    func nilLabel() {
        let unlabeled = CNLabeledValue<CNPhoneNumber>(label: nil, value: CNPhoneNumber(stringValue: "123"))
        #expect(unlabeled.label == nil)
        #expect(unlabeled.value.stringValue == "123")
    }

    @Test("settingLabel keeps the value and the identifier")
    func settingLabel() {
        let original = CNLabeledValue(label: CNLabelHome, value: CNPhoneNumber(stringValue: "555"))
        let relabeled = original.settingLabel(CNLabelPhoneNumberMobile)
        #expect(relabeled.label == CNLabelPhoneNumberMobile)
        #expect(relabeled.value.stringValue == "555")
        #expect(relabeled.identifier == original.identifier)
        #expect(original.label == CNLabelHome)
        #expect(original.settingLabel(nil).label == nil)
    }

    @Test("settingValue and settingLabel(_:value:) keep the identifier")
    func settingValue() {
        let original = CNLabeledValue(label: CNLabelHome, value: CNPhoneNumber(stringValue: "555"))
        let revalued = original.settingValue(CNPhoneNumber(stringValue: "777"))
        #expect(revalued.value.stringValue == "777")
        #expect(revalued.label == CNLabelHome)
        #expect(revalued.identifier == original.identifier)

        let both = original.settingLabel(CNLabelWork, value: CNPhoneNumber(stringValue: "999"))
        #expect(both.label == CNLabelWork)
        #expect(both.value.stringValue == "999")
        #expect(both.identifier == original.identifier)
    }

    @Test("Equality compares label and value, not the identifier")
    func equality() {
        let first = CNLabeledValue(label: CNLabelHome, value: "x@y.z" as NSString)
        let second = CNLabeledValue(label: CNLabelHome, value: "x@y.z" as NSString)
        #expect(first.identifier != second.identifier)
        #expect(first == second)
        #expect(first.hash == second.hash)
        #expect(first != CNLabeledValue(label: CNLabelWork, value: "x@y.z" as NSString))
        #expect(first != CNLabeledValue(label: CNLabelHome, value: "other@y.z" as NSString))
    }

    @Test("The value is copied on creation, so a mutable value changed later does not leak in")
    func valueIsCopied() {
        let address = CNMutablePostalAddress()
        address.city = "Paris"
        let labeled = CNLabeledValue<CNPostalAddress>(label: CNLabelHome, value: address)
        address.city = "Lyon"
        #expect(labeled.value.city == "Paris")
        #expect(!(labeled.value is CNMutablePostalAddress))
    }

    @Test("copy() returns an equal labeled value with the same identifier")
    func copying() throws {
        let original = CNLabeledValue(label: CNLabelOther, value: "v" as NSString)
        let copy = try #require(original.copy() as? CNLabeledValue<NSString>)
        #expect(copy == original)
        #expect(copy.identifier == original.identifier)
    }

    @Test(
        "localizedString(forLabel:) maps Apple's labels to display names",
        arguments: [
            (CNLabelHome, "home"),
            (CNLabelWork, "work"),
            (CNLabelSchool, "school"),
            (CNLabelOther, "other"),
            (CNLabelEmailiCloud, "iCloud"),
            (CNLabelURLAddressHomePage, "homepage"),
            (CNLabelDateAnniversary, "anniversary"),
            (CNLabelPhoneNumberMobile, "mobile"),
            (CNLabelPhoneNumberiPhone, "iPhone"),
            (CNLabelPhoneNumberAppleWatch, "Apple Watch"),
            (CNLabelPhoneNumberMain, "main"),
            (CNLabelPhoneNumberHomeFax, "home fax"),
            (CNLabelPhoneNumberWorkFax, "work fax"),
            (CNLabelPhoneNumberOtherFax, "other fax"),
            (CNLabelPhoneNumberPager, "pager"),
        ])
    func localizedStrings(label: String, expected: String) {
        #expect(CNLabeledValue<NSString>.localizedString(forLabel: label) == expected)
    }

    @Test("localizedString(forLabel:) returns custom labels unchanged")
    func localizedStringCustomLabel() {
        #expect(CNLabeledValue<NSString>.localizedString(forLabel: "Email") == "Email")
        #expect(CNLabeledValue<CNPhoneNumber>.localizedString(forLabel: "Boat phone") == "Boat phone")
        #expect(CNLabeledValue<NSString>.localizedString(forLabel: "") == "")
    }

    @Test("Label constants have Apple's exact values")
    func labelConstants() {
        #expect(CNLabelHome == "_$!<Home>!$_")
        #expect(CNLabelWork == "_$!<Work>!$_")
        #expect(CNLabelSchool == "_$!<School>!$_")
        #expect(CNLabelOther == "_$!<Other>!$_")
        #expect(CNLabelEmailiCloud == "iCloud")
        #expect(CNLabelURLAddressHomePage == "_$!<HomePage>!$_")
        #expect(CNLabelDateAnniversary == "_$!<Anniversary>!$_")
        #expect(CNLabelPhoneNumberMobile == "_$!<Mobile>!$_")
        #expect(CNLabelPhoneNumberiPhone == "iPhone")
        #expect(CNLabelPhoneNumberAppleWatch == "AppleWatch")
        #expect(CNLabelPhoneNumberMain == "_$!<Main>!$_")
        #expect(CNLabelPhoneNumberHomeFax == "_$!<HomeFAX>!$_")
        #expect(CNLabelPhoneNumberWorkFax == "_$!<WorkFAX>!$_")
        #expect(CNLabelPhoneNumberOtherFax == "_$!<OtherFAX>!$_")
        #expect(CNLabelPhoneNumberPager == "_$!<Pager>!$_")
    }
}
