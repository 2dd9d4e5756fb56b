import AppGroupStore
import Foundation

/// Contacts that use every field of the model in every shape (rule F1).
///
/// Each shape stresses something converters get wrong: no given name, organisation only, several
/// phones, emails and postal addresses, long multi-line Unicode notes, birthdays with and without
/// a year, images, URLs, standard and custom labels.
enum RichContacts {
    /// The number of shapes.
    static let shapeCount = 6

    /// Shape `shape` in words, as failures name it (issue 30, item 13).
    static func name(ofShape shape: Int) -> String {
        [
            "every field at once", "organisation only, no person name",
            "no given name, custom labels, birthday without a year", "long multi-line note, several addresses",
            "image, URLs, nickname only", "plain person with a phone",
        ][shape % shapeCount]
    }

    /// Shape `shape` (0..<shapeCount) for `identifier`; `salt` varies the values between rounds.
    static func make(_ identifier: String, shape: Int, salt: Int) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        switch shape % shapeCount {
        case 0:
            // Every field at once, standard labels.
            record.namePrefix = "Dr."
            record.givenName = "Grace"
            record.middleName = "Brewster"
            record.familyName = "Hopper \(salt)"
            record.nameSuffix = "PhD"
            record.nickname = "Amazing Grace"
            record.organizationName = "US Navy"
            record.departmentName = "Computing"
            record.jobTitle = "Rear Admiral"
            record.phoneNumbers = [
                .init(label: "_$!<Mobile>!$_", value: "+1 202 555 \(1000 + salt % 9000)"),
                .init(label: "_$!<Work>!$_", value: "+1 202 555 0100"),
                .init(label: "_$!<HomeFAX>!$_", value: "+1 202 555 0199"),
            ]
            record.emailAddresses = [
                .init(label: "_$!<Work>!$_", value: "grace\(salt)@navy.example"),
                .init(label: "_$!<Home>!$_", value: "grace@home.example"),
            ]
            record.postalAddresses = [
                address("_$!<Work>!$_", street: "1 Navy Way", city: "Arlington", iso: "us"),
                address("_$!<Home>!$_", street: "2 Elm St\nApt 3", city: "Wolfeboro", iso: "us"),
            ]
            record.urlAddresses = [.init(label: "_$!<HomePage>!$_", value: "https://example.org/grace?\(salt)")]
            record.note = "Found the first bug.\nTabs\tand \"quotes\", commas; semicolons \\ backslashes."
            record.birthday = "1906-12-09"
            record.imageData = image(salt)
        case 1:
            // Organisation only: no person's name at all.
            record.organizationName = "Zürcher Kantonalbank \(salt)"
            record.departmentName = "Kundendienst"
            record.phoneNumbers = [.init(label: "_$!<Main>!$_", value: "+41 44 292 \(1000 + salt % 9000)")]
            record.urlAddresses = [.init(label: nil, value: "https://zkb.example/\(salt)")]
        case 2:
            // No given name, custom labels, a birthday without a year.
            record.familyName = "Ōkubo \(salt)"
            record.phoneNumbers = [
                .init(label: "Boat ⛵", value: "+81 3 \(1000 + salt % 9000) 0000"),
                .init(label: nil, value: "+81 90 1234 5678"),
            ]
            record.emailAddresses = [.init(label: "Zoë's list", value: "okubo\(salt)@example.jp")]
            record.birthday = "--02-29"
        case 3:
            // A long multi-line Unicode note and several addresses, one with every component.
            record.givenName = "Αλέξανδρος"
            record.familyName = "Παπαδόπουλος"
            record.note = (0..<40).map { "Γραμμή \($0): naïve café, 東京, emoji 🧑‍💻, salt \(salt)" }.joined(separator: "\n")
            var full = address("Summer house", street: "Οδός 1", city: "Αθήνα", iso: "gr")
            full.subLocality = "Πλάκα"
            full.subAdministrativeArea = "Attica"
            full.state = "Attiki"
            full.postalCode = "105 58"
            full.country = "Greece"
            record.postalAddresses = [full, address(nil, street: "", city: "Thessaloniki", iso: "")]
        case 4:
            // An image and URLs with standard and custom labels; a name with a nickname only.
            record.nickname = "Bear \(salt)"
            record.imageData = image(salt &* 7)
            record.urlAddresses = [
                .init(label: "_$!<HomePage>!$_", value: "https://bear.example"),
                .init(label: "_$!<Work>!$_", value: "https://work.example/bear"),
                .init(label: "Mastodon", value: "https://social.example/@bear\(salt)"),
            ]
            record.emailAddresses = [
                .init(label: "_$!<Other>!$_", value: "bear@example.com"),
                .init(label: "_$!<iCloud>!$_", value: "bear@icloud.example"),
            ]
        default:
            // A plain person with a phone: the common case still works next to the others.
            record.givenName = "Ada"
            record.familyName = "Lovelace \(salt)"
            record.phoneNumbers = [.init(label: "_$!<iPhone>!$_", value: "+44 20 7946 \(1000 + salt % 9000)")]
            record.birthday = "1815-12-10"
        }
        return record
    }

    private static func address(_ label: String?, street: String, city: String, iso: String)
        -> ContactRecord.LabeledPostalAddress
    {
        var address = ContactRecord.LabeledPostalAddress(label: label)
        address.street = street
        address.city = city
        address.isoCountryCode = iso
        return address
    }

    /// A small PNG-signed image whose bytes depend on `salt`.
    private static func image(_ salt: Int) -> Data {
        Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + (0..<56).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ salt) })
    }
}
