import AppGroupStore
import Foundation

// The bridge between a contact and its stored record (`ContactRecord`, the shape of the App
// Group files, the system store and `--json` output). It lives in Contacts so that
// `CNContactVCardSerialization` can use the project's vCard codec, which works on records.

extension ContactRecord {
    /// The record of a contact as the system receives it, under the app's identifier.
    public init(_ contact: CNContact, identifier: String) {
        self.init(identifier: identifier)
        namePrefix = contact.namePrefix
        givenName = contact.givenName
        middleName = contact.middleName
        familyName = contact.familyName
        nameSuffix = contact.nameSuffix
        nickname = contact.nickname
        organizationName = contact.organizationName
        departmentName = contact.departmentName
        jobTitle = contact.jobTitle
        note = contact.note
        imageData = contact.imageData
        phoneNumbers = contact.phoneNumbers.map { LabeledString(label: $0.label, value: $0.value.stringValue) }
        emailAddresses = contact.emailAddresses.map { LabeledString(label: $0.label, value: $0.value as String) }
        urlAddresses = contact.urlAddresses.map { LabeledString(label: $0.label, value: $0.value as String) }
        postalAddresses = contact.postalAddresses.map { labeled in
            var address = LabeledPostalAddress(label: labeled.label)
            let value = labeled.value
            address.street = value.street
            address.subLocality = value.subLocality
            address.city = value.city
            address.subAdministrativeArea = value.subAdministrativeArea
            address.state = value.state
            address.postalCode = value.postalCode
            address.country = value.country
            address.isoCountryCode = value.isoCountryCode
            return address
        }
        if let birthday = contact.birthday, let month = birthday.month, let day = birthday.day {
            self.birthday = BirthdayFormat.format(year: birthday.year, month: month, day: day)
        }
    }


    /// A `CNMutableContact` with this record's values.
    public func makeContact() -> CNMutableContact {
        makeContact(identifier: nil)
    }

    /// A `CNMutableContact` with this record's values and the given identifier (a fresh one when nil).
    package func makeContact(identifier: String?) -> CNMutableContact {
        let contact = identifier.map { CNMutableContact(identifier: $0) } ?? CNMutableContact()
        contact.namePrefix = namePrefix
        contact.givenName = givenName
        contact.middleName = middleName
        contact.familyName = familyName
        contact.nameSuffix = nameSuffix
        contact.nickname = nickname
        contact.organizationName = organizationName
        contact.departmentName = departmentName
        contact.jobTitle = jobTitle
        contact.note = note
        contact.imageData = imageData
        contact.phoneNumbers = phoneNumbers.map { CNLabeledValue(label: $0.label, value: CNPhoneNumber(stringValue: $0.value)) }
        contact.emailAddresses = emailAddresses.map { CNLabeledValue(label: $0.label, value: $0.value as NSString) }
        contact.urlAddresses = urlAddresses.map { CNLabeledValue(label: $0.label, value: $0.value as NSString) }
        contact.postalAddresses = postalAddresses.map { labeled in
            let address = CNMutablePostalAddress()
            address.street = labeled.street
            address.subLocality = labeled.subLocality
            address.city = labeled.city
            address.subAdministrativeArea = labeled.subAdministrativeArea
            address.state = labeled.state
            address.postalCode = labeled.postalCode
            address.country = labeled.country
            address.isoCountryCode = labeled.isoCountryCode
            return CNLabeledValue<CNPostalAddress>(label: labeled.label, value: address)
        }
        if let birthday, let parsed = BirthdayFormat.parse(birthday) {
            contact.birthday = DateComponents(year: parsed.year, month: parsed.month, day: parsed.day)
        }
        return contact
    }
}
