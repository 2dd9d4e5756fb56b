import AppGroupStore
import ContactsInterop
import Foundation
import SeededRandomness

/// Realistic sample contacts for `contacts-host generate`: every field shape the store keeps, the
/// same contacts for the same seed (`SeededRandom`, not the system generator, so runs and machines agree).
package struct SampleContacts {
    private var random: SeededRandom
    private let seed: UInt64

    /// A generator for `seed`.
    package init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
    }

    private static let given = [
        "Ada", "Grace", "Alan", "Zoë", "José", "Mei", "Olu", "Søren", "Priya", "Liam", "Élodie", "Kenji", "Fatima",
        "Noah", "Ingrid", "Mateo",
    ]
    private static let family = [
        "Lovelace", "Hopper", "Turing", "de Groot", "García", "Chen", "Adeyemi", "Kierkegaard", "Patel", "O'Brien",
        "Dubois", "Tanaka", "Al-Sayed", "Müller", "Nguyen", "van der Berg",
    ]
    private static let organizations = [
        "Example Corp", "Analytical Engines Ltd", "Acme", "Northwind Traders", "Contoso", "Globex",
    ]
    private static let departments = ["Engineering", "Sales", "Research", "Support"]
    private static let titles = ["Engineer", "Designer", "Manager", "Director", "Analyst"]
    /// A 1×1 PNG: a photo's shape without a photo's size (the bench's stores stay comparable).
    private static let photo = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!
    private static let cities = [
        ("Cupertino", "CA", "95014", "United States", "us"), ("Amsterdam", "", "1012 AB", "Netherlands", "nl"),
        ("London", "", "SW1A 1AA", "United Kingdom", "gb"), ("Tokyo", "", "100-0001", "Japan", "jp"),
    ]

    private mutating func next() -> UInt64 { random.next() }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func digits(_ count: Int) -> String { (0..<count).map { _ in String(below(10)) }.joined() }

    /// The contact at `index` of this seed's sequence (call in order: each call advances the generator).
    package mutating func contact(_ index: Int) -> ContactRecord {
        var record = ContactRecord(identifier: "sample-\(seed)-\(index)")
        let given = pick(Self.given)
        let family = pick(Self.family)
        let organization = pick(Self.organizations)
        if chance(10) {
            // An organization card: no person name.
            record.organizationName = organization
            record.contactType = "organization"
        } else {
            record.givenName = given
            record.familyName = family
            if chance(20) { record.middleName = pick(Self.given) }
            if chance(10) { record.namePrefix = pick(["Dr.", "Ms.", "Mr."]) }
            if chance(5) { record.nameSuffix = pick(["Jr.", "PhD"]) }
            if chance(15) { record.nickname = String(given.prefix(3)) }
            if chance(10) { record.phoneticGivenName = given.lowercased() }
            if chance(5) { record.previousFamilyName = pick(Self.family) }
            if chance(60) {
                record.organizationName = organization
                if chance(50) { record.departmentName = pick(Self.departments) }
                if chance(70) { record.jobTitle = pick(Self.titles) }
            }
        }
        let phoneLabels = [
            ContactLabel.phoneNumberMobile, ContactLabel.home, ContactLabel.work, ContactLabel.phoneNumberMain,
            ContactLabel.phoneNumberiPhone,
            "Studio",
        ]
        for _ in 0..<below(3) + 1 {
            let number = pick([
                "+1 408 555 \(digits(4))", "+31 6 \(digits(4)) \(digits(4))", "+44 20 7946 \(digits(4))",
                "(212) 555-\(digits(4))",
            ])
            record.phoneNumbers.append(.init(label: pick(phoneLabels), value: number))
        }
        let mailbox = (record.givenName.isEmpty ? "info" : record.givenName.lowercased()).filter {
            $0.isLetter && $0.isASCII
        }
        for index in 0..<below(3) {
            let domain = pick(["example.com", "example.org", "icloud.com"])
            record.emailAddresses.append(
                .init(
                    label: pick([ContactLabel.home, ContactLabel.work, ContactLabel.emailiCloud]),
                    value: "\(mailbox.isEmpty ? "x" : mailbox)\(index == 0 ? "" : String(index))@\(domain)"))
        }
        if chance(40) {
            let (city, region, postalCode, country, iso) = pick(Self.cities)
            var address = ContactRecord.LabeledPostalAddress(label: pick([ContactLabel.home, ContactLabel.work]))
            address.street =
                "\(below(200) + 1) \(pick(["Infinite Loop", "Keizersgracht", "Baker Street", "Main Street"]))"
            address.city = city
            address.state = region
            address.postalCode = postalCode
            address.country = country
            address.isoCountryCode = iso
            record.postalAddresses.append(address)
        }
        if chance(20) {
            record.urlAddresses.append(
                .init(label: ContactLabel.urlAddressHomePage, value: "https://example.com/\(mailbox)"))
        }
        if chance(30) {
            let month = below(12) + 1
            let day = below(28) + 1
            record.birthday =
                chance(20)
                ? String(format: "--%02d-%02d", month, day)
                : String(format: "%04d-%02d-%02d", 1940 + below(65), month, day)
        }
        if chance(10) {
            record.dates.append(
                .init(
                    label: ContactLabel.dateAnniversary,
                    value: String(format: "%04d-%02d-%02d", 1990 + below(30), below(12) + 1, below(28) + 1)))
        }
        if chance(10) {
            record.contactRelations.append(
                .init(label: ContactLabel.relationSpouse, value: "\(pick(Self.given)) \(family)"))
        }
        if chance(10) {
            var profile = ContactRecord.LabeledSocialProfile(label: nil)
            profile.service = ContactLabel.socialServiceTwitter
            profile.username = mailbox
            profile.urlString = "https://twitter.com/\(mailbox)"
            record.socialProfiles.append(profile)
        }
        if chance(5) {
            record.instantMessageAddresses.append(.init(label: ContactLabel.home, username: mailbox, service: "Skype"))
        }
        if chance(15) {
            record.note = pick(["Met at WWDC.", "Prefers e-mail.", "Line one\nline two", "Café ☕️ on Fridays"])
        }
        // The rarer fields last, so the draws above (and the contacts they make) stay as they were.
        rareFields(&record)
        return record
    }

    /// Phonetic names, a date in another calendar and a small photo, now and then: every field of
    /// the record's table appears in a few thousand contacts (`RecordFieldTableHostTests`).
    private mutating func rareFields(_ record: inout ContactRecord) {
        if record.contactType == "organization" {
            if chance(10) { record.phoneticOrganizationName = record.organizationName.lowercased() }
        } else if !record.phoneticGivenName.isEmpty {
            if chance(30) {
                record.phoneticMiddleName = record.middleName.isEmpty ? "ann" : record.middleName.lowercased()
            }
            record.phoneticFamilyName = record.familyName.lowercased()
        }
        if chance(3) {
            record.nonGregorianBirthday = pick([
                ContactRecord.NonGregorianDate(
                    calendar: "chinese", era: 78, year: 40, month: below(12) + 1, day: below(28) + 1),
                ContactRecord.NonGregorianDate(
                    calendar: "hebrew", year: 5740 + below(40), month: below(12) + 1, day: below(28) + 1),
            ])
        }
        if chance(2) { record.imageData = Self.photo }
    }

    /// `count` contacts of `seed`'s sequence.
    package static func make(_ count: Int, seed: UInt64) -> [ContactRecord] {
        var generator = SampleContacts(seed: seed)
        return (0..<count).map { generator.contact($0) }
    }
}
