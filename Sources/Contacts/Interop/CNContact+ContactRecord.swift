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
        contactType = contact.contactType == .organization ? "organization" : nil
        previousFamilyName = contact.previousFamilyName
        phoneticGivenName = contact.phoneticGivenName
        phoneticMiddleName = contact.phoneticMiddleName
        phoneticFamilyName = contact.phoneticFamilyName
        phoneticOrganizationName = contact.phoneticOrganizationName
        if let date = contact.nonGregorianBirthday, let month = date.month, let day = date.day {
            nonGregorianBirthday = NonGregorianDate(
                calendar: date.calendar.map { CalendarNames.name(of: $0.identifier) } ?? "gregorian",
                era: date.era, year: date.year, month: month, day: day, isLeapMonth: date.isLeapMonth)
        }
        // A date needs at least a month and a day to be stored (as `YYYY-MM-DD` or `--MM-DD`).
        dates = contact.dates.compactMap { labeled in
            let date = labeled.value as DateComponents
            guard let month = date.month, let day = date.day else { return nil }
            return LabeledString(label: labeled.label, value: BirthdayFormat.format(year: date.year, month: month, day: day))
        }
        contactRelations = contact.contactRelations.map { LabeledString(label: $0.label, value: $0.value.name) }
        socialProfiles = contact.socialProfiles.map { labeled in
            var profile = LabeledSocialProfile(label: labeled.label)
            profile.urlString = labeled.value.urlString
            profile.username = labeled.value.username
            profile.userIdentifier = labeled.value.userIdentifier
            profile.service = labeled.value.service
            return profile
        }
        instantMessageAddresses = contact.instantMessageAddresses.map {
            LabeledInstantMessageAddress(label: $0.label, username: $0.value.username, service: $0.value.service)
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
        contact.contactType = contactType == "organization" ? .organization : .person
        contact.previousFamilyName = previousFamilyName
        contact.phoneticGivenName = phoneticGivenName
        contact.phoneticMiddleName = phoneticMiddleName
        contact.phoneticFamilyName = phoneticFamilyName
        contact.phoneticOrganizationName = phoneticOrganizationName
        if let date = nonGregorianBirthday {
            var components = DateComponents(
                calendar: CalendarNames.identifier(named: date.calendar).map { Calendar(identifier: $0) },
                era: date.era, year: date.year, month: date.month, day: date.day)
            components.isLeapMonth = date.isLeapMonth
            contact.nonGregorianBirthday = components
        }
        contact.dates = dates.compactMap { labeled in
            guard let parsed = BirthdayFormat.parse(labeled.value) else { return nil }
            let date = DateComponents(year: parsed.year, month: parsed.month, day: parsed.day)
            return CNLabeledValue(label: labeled.label, value: date as NSDateComponents)
        }
        contact.contactRelations = contactRelations.map {
            CNLabeledValue(label: $0.label, value: CNContactRelation(name: $0.value))
        }
        contact.socialProfiles = socialProfiles.map {
            CNLabeledValue(
                label: $0.label,
                value: CNSocialProfile(
                    urlString: $0.urlString, username: $0.username, userIdentifier: $0.userIdentifier, service: $0.service))
        }
        contact.instantMessageAddresses = instantMessageAddresses.map {
            CNLabeledValue(label: $0.label, value: CNInstantMessageAddress(username: $0.username, service: $0.service))
        }
        return contact
    }
}
