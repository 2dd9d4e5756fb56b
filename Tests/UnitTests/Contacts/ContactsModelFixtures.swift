import Contacts
import Foundation

/// Shared sample values for the Contacts stand-in's tests.
enum ContactsModelFixtures {
    /// A mutable contact with every kind of value set.
    static func fullContact() -> CNMutableContact {
        let contact = CNMutableContact()
        contact.contactType = .person
        contact.namePrefix = "Dr."
        contact.givenName = "Ada"
        contact.middleName = "King"
        contact.familyName = "Lovelace"
        contact.previousFamilyName = "Byron"
        contact.nameSuffix = "PhD"
        contact.nickname = "Countess"
        contact.organizationName = "Analytical Engines"
        contact.departmentName = "Research"
        contact.jobTitle = "Programmer"
        contact.phoneticGivenName = "AY-da"
        contact.phoneticMiddleName = "KING"
        contact.phoneticFamilyName = "LUV-lace"
        contact.phoneticOrganizationName = "an-uh-LIT-i-kul"
        contact.note = "First programmer"
        contact.birthday = DateComponents(year: 1815, month: 12, day: 10)
        contact.imageData = Data([1, 2, 3])
        contact.phoneNumbers = [
            CNLabeledValue(label: CNLabelPhoneNumberMobile, value: CNPhoneNumber(stringValue: "+44 20 7946 0000"))
        ]
        contact.emailAddresses = [CNLabeledValue(label: CNLabelHome, value: "ada@example.com" as NSString)]
        let address = CNMutablePostalAddress()
        address.street = "12 St James's Square"
        address.city = "London"
        address.country = "United Kingdom"
        contact.postalAddresses = [CNLabeledValue(label: CNLabelHome, value: address)]
        contact.urlAddresses = [
            CNLabeledValue(label: CNLabelURLAddressHomePage, value: "https://example.com/ada" as NSString)
        ]
        let anniversary = NSDateComponents()
        anniversary.year = 1835
        anniversary.month = 7
        anniversary.day = 8
        contact.dates = [CNLabeledValue(label: CNLabelDateAnniversary, value: anniversary)]
        return contact
    }
}
