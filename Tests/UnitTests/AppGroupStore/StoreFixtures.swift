import AppGroupStore
import Foundation
import Glibc
import TestSupport

/// Helpers shared by the App Group store tests.
enum StoreFixtures {
    /// A contact with a name (and an optional phone number).
    static func contact(_ identifier: String, given: String = "Given", family: String = "Family", phone: String? = nil)
        -> ContactRecord
    {
        var record = ContactRecord(identifier: identifier)
        record.givenName = given
        record.familyName = family
        if let phone { record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: phone)] }
        return record
    }

    /// A contact with the common fields set (``everyField(_:)`` sets the rest too).
    static func fullContact(_ identifier: String = "full-1") -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.namePrefix = "Dr."
        record.givenName = "Ada"
        record.middleName = "Augusta"
        record.familyName = "Lovelace"
        record.nameSuffix = "II"
        record.nickname = "Countess"
        record.organizationName = "Analytical Engines"
        record.departmentName = "Research"
        record.jobTitle = "Mathematician"
        record.phoneNumbers = [
            .init(label: "_$!<Mobile>!$_", value: "+44 20 7946 0000"), .init(label: nil, value: "555-0100"),
        ]
        record.emailAddresses = [.init(label: "_$!<Work>!$_", value: "ada@example.org")]
        var address = ContactRecord.LabeledPostalAddress(label: "_$!<Home>!$_")
        address.street = "12 St James's Square"
        address.subLocality = "St James's"
        address.city = "London"
        address.subAdministrativeArea = "Westminster"
        address.state = "England"
        address.postalCode = "SW1Y 4JH"
        address.country = "United Kingdom"
        address.isoCountryCode = "gb"
        record.postalAddresses = [address]
        record.urlAddresses = [.init(label: "_$!<HomePage>!$_", value: "https://example.org/ada")]
        record.note = "First programmer.\nSecond line \"quoted\" / slashed"
        record.birthday = "1815-12-10"
        record.imageData = Data([0, 1, 2, 254, 255])
        return record
    }

    /// ``fullContact(_:)`` with every other stored field set as well (`RecordFieldCoverageTests`
    /// fails, naming the field, when a new one is not set here).
    static func everyField(_ identifier: String = "every-1") -> ContactRecord {
        var record = fullContact(identifier)
        record.previousFamilyName = "Byron"
        record.phoneticGivenName = "AY-da"
        record.phoneticMiddleName = "aw-GUS-ta"
        record.phoneticFamilyName = "LUV-lace"
        record.phoneticOrganizationName = "an-a-LIT-i-cal"
        record.nonGregorianBirthday = .init(calendar: "hebrew", year: 5576, month: 3, day: 8)
        record.dates = [.init(label: "_$!<Anniversary>!$_", value: "1835-07-08")]
        record.contactRelations = [.init(label: "_$!<Spouse>!$_", value: "William King")]
        var profile = ContactRecord.LabeledSocialProfile(label: nil)
        profile.urlString = "https://social.example/@ada"
        profile.username = "ada"
        profile.userIdentifier = "1815"
        profile.service = "Mastodon"
        record.socialProfiles = [profile]
        record.instantMessageAddresses = [
            .init(label: "_$!<Home>!$_", username: "ada@jabber.example", service: "Jabber")
        ]
        return record
    }

    /// The number of newline-terminated lines in a file.
    static func lineCount(_ path: String) throws -> Int {
        try Data(contentsOf: URL(fileURLWithPath: path)).reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// The lines of a file.
    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// The bytes of a file.
    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Appends raw bytes to a file.
    static func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// `stat(2)` of a path (without following a final symlink).
    static func info(_ path: String) -> stat? {
        var result = stat()
        return lstat(path, &result) == 0 ? result : nil
    }

    /// The permission bits of a path.
    static func mode(_ path: String) -> Int? {
        info(path).map { Int($0.st_mode & 0o7777) }
    }

    /// The changes after `seq`, or nil when the window is expired.
    static func entries(
        _ store: JournaledStore<NoMetadata>, after seq: Int, in generation: String, limit: Int = 1000
    ) throws -> (entries: [JournalEntry<NoMetadata>], headSeq: Int, generation: String)? {
        switch try store.changes(after: seq, in: generation, limit: limit) {
        case .changes(let entries, let headSeq, let generation): return (entries, headSeq, generation)
        case .expired: return nil
        }
    }

    /// Whether a change window is expired.
    static func isExpired(_ window: ChangeWindow<NoMetadata>) -> Bool {
        if case .expired = window { return true }
        return false
    }
}

extension StoreFixtures {
    /// Where `body` reported a `StoreError.malformed`, or nil when it threw something else or nothing.
    static func malformedLocation(_ body: () throws -> Void) -> (path: String, line: Int, reason: String)? {
        do {
            try body()
        } catch let StoreError.malformed(path, line, reason) {
            return (path, line, reason)
        } catch {
            return nil
        }
        return nil
    }
}
