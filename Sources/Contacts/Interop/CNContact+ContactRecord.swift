import AppGroupStore
import Foundation

// The bridge between a contact and its stored record (`ContactRecord`, the shape of the App
// Group files, the system store and `--json` output). It lives in Contacts so that
// `CNContactVCardSerialization` can use the project's vCard codec, which works on records.

extension ContactRecord {
    /// The record of a contact as the system receives it, under the app's identifier.
    public init(_ contact: CNContact, identifier: String) {
        // The fast path: a contact the bridge built and nobody changed holds exactly its record.
        // Every setter clears `bridgedRecord`, and labeled values hold immutable copies of their
        // values (the one mutable kind, `NSDateComponents` in `dates`, never gets a bridged record).
        if var record = contact.bridgedRecord {
            // Assigned only when it differs: a write forgets the bytes the record was read from.
            if record.identifier != identifier { record.identifier = identifier }
            self = record
            return
        }
        self.init(fieldsOf: contact, identifier: identifier)
    }

    /// The record of a contact, built field by field (the general path, for any contact).
    package init(fieldsOf contact: CNContact, identifier: String) {
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
        postalAddresses = Self.postalAddresses(of: contact)
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
            return LabeledString(
                label: labeled.label, value: BirthdayFormat.format(year: date.year, month: month, day: day))
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

    static func postalAddresses(of contact: CNContact) -> [LabeledPostalAddress] {
        contact.postalAddresses.map { labeled in
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
    }

    /// Whether `ContactRecord(makeContact(), identifier: identifier)` gives back exactly this record.
    ///
    /// Strings, labels, image data and the labeled values' fields are copied verbatim both ways, and
    /// so is a birthday written as the store writes it (`1990-02-03`, `--02-03`): it becomes a
    /// `DateComponents` (a value, changed only through the setter) and formats back to the same
    /// text. Other dates are not: a birthday or date that does not parse is dropped, other spellings
    /// and calendars are rewritten, and `NSDateComponents` in `dates` can be changed in place
    /// without a setter. A `contactType` other than nil or "organization" reads back as nil.
    package var bridgesExactly: Bool {
        // A record that defers decoding has none of the values below, and is asked without decoding.
        if defersDecoding { return true }
        return nonGregorianBirthday == nil && dates.isEmpty
            && (contactType == nil || contactType == "organization")
            && (birthday.map(BirthdayFormat.isCanonical) ?? true)
    }

    /// A `CNMutableContact` with this record's values.
    public func makeContact() -> CNMutableContact {
        makeContact(identifier: nil)
    }

    /// A `CNMutableContact` with this record's values and the given identifier (a fresh one when nil).
    package func makeContact(identifier: String?) -> CNMutableContact {
        // A record that round-trips exactly is all the contact needs: it builds its values (and a
        // fresh identifier) from it only if someone reads them, and gives it back unread (see
        // `CNContact.values`).
        if bridgesExactly { return CNMutableContact(bridging: self, identifier: identifier) }
        return CNMutableContact(values: CNContactValues(self, identifier: identifier ?? UniqueIdentifier.make()))
    }
}

extension CNContactValues {
    /// The values of a contact made from `record`, with the given identifier.
    init(_ record: ContactRecord, identifier: String) {
        // The values are filled in one struct and the contact made once: going through the
        // contact's setters costs a dynamic call and an invalidation per field.
        var values = CNContactValues(identifier: identifier)
        values.namePrefix = record.namePrefix
        values.givenName = record.givenName
        values.middleName = record.middleName
        values.familyName = record.familyName
        values.nameSuffix = record.nameSuffix
        values.nickname = record.nickname
        values.organizationName = record.organizationName
        values.departmentName = record.departmentName
        values.jobTitle = record.jobTitle
        values.note = record.note
        values.imageData = record.imageData
        values.phoneNumbers = record.phoneNumbers.map {
            CNLabeledValue(label: $0.label, value: CNPhoneNumber(stringValue: $0.value))
        }
        values.emailAddresses = record.emailAddresses.map {
            CNLabeledValue(label: $0.label, value: $0.value as NSString)
        }
        values.urlAddresses = record.urlAddresses.map { CNLabeledValue(label: $0.label, value: $0.value as NSString) }
        values.postalAddresses = record.postalAddresses.map { labeled in
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
        if let birthday = record.birthday, let parsed = BirthdayFormat.parse(birthday) {
            values.birthday = DateComponents(year: parsed.year, month: parsed.month, day: parsed.day)
        }
        values.contactType = record.contactType == "organization" ? .organization : .person
        values.previousFamilyName = record.previousFamilyName
        values.phoneticGivenName = record.phoneticGivenName
        values.phoneticMiddleName = record.phoneticMiddleName
        values.phoneticFamilyName = record.phoneticFamilyName
        values.phoneticOrganizationName = record.phoneticOrganizationName
        if let date = record.nonGregorianBirthday {
            var components = DateComponents(
                calendar: CalendarNames.identifier(named: date.calendar).map { Calendar(identifier: $0) },
                era: date.era, year: date.year, month: date.month, day: date.day)
            components.isLeapMonth = date.isLeapMonth
            values.nonGregorianBirthday = components
        }
        values.dates = record.dates.compactMap { labeled in
            guard let parsed = BirthdayFormat.parse(labeled.value) else { return nil }
            let date = DateComponents(year: parsed.year, month: parsed.month, day: parsed.day)
            return CNLabeledValue(label: labeled.label, value: date as NSDateComponents)
        }
        values.contactRelations = record.contactRelations.map {
            CNLabeledValue(label: $0.label, value: CNContactRelation(name: $0.value))
        }
        values.socialProfiles = record.socialProfiles.map {
            CNLabeledValue(
                label: $0.label,
                value: CNSocialProfile(
                    urlString: $0.urlString, username: $0.username, userIdentifier: $0.userIdentifier,
                    service: $0.service))
        }
        values.instantMessageAddresses = record.instantMessageAddresses.map {
            CNLabeledValue(label: $0.label, value: CNInstantMessageAddress(username: $0.username, service: $0.service))
        }
        self = values
    }
}
