import AppGroupStore
import ContactsInterop
import Foundation
import TestSupport
import Testing

/// Scripts/vobject_read.py failed (vobject could not read the export).
struct VobjectReadError: Error, CustomStringConvertible {
    var result: ProcessResult
    var description: String { "vobject_read.py exited \(result.exitCode): \(result.stderr)" }
}

/// The exporter checked against an independent reader: Python's `vobject` (pinned in
/// Scripts/test-tools-requirements.txt) reads what `VCard.encode` wrote, through
/// Scripts/vobject_read.py, and every field must read as the contact that was exported.
@Suite("vCard export read by an independent reader (vobject)")
struct InteropVCardIndependentReaderTests {
    /// The contacts exported: every issue-14 and issue-26 fixture's contacts and random ones with every field.
    static func contacts() -> [ContactRecord] {
        var records = (VCardWriterFixtures.all + VCardProducerFixtures.all).flatMap {
            VCard.decode(data: $0.bytes).contacts
        }
        var factory = InteropRandomContactFactory(seed: 0x0B1E_C7)
        records += (0..<80).map { factory.record(1000 + $0) }
        return records
    }

    /// What vobject read from `text`, one JSON object per card.
    static func vobjectRead(_ text: String) throws -> [[String: Any]] {
        let python = try PythonTestTools.python()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vobject-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.vcf")
        try Data(text.utf8).write(to: file)
        let script = PythonTestTools.repositoryRoot + "/Scripts/vobject_read.py"
        let result = try ProcessRunner.run(python, [script, file.path])
        guard result.exitCode == 0 else { throw VobjectReadError(result: result) }
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return object as? [[String: Any]] ?? []
    }

    /// The URI schemes of IM services that have one (RFC 6350 §6.4.3; IANA's and the services' own).
    static let imppSchemes = [
        "AIM": "aim", "ICQ": "icq", "Jabber": "xmpp", "GoogleTalk": "xmpp", "Facebook": "xmpp", "MSN": "msnim",
        "Yahoo": "ymsgr", "Skype": "skype", "IRC": "irc", "Matrix": "matrix", "sip": "sip", "irc": "irc",
    ]

    /// The TYPE word Apple Contacts writes for the social services it knows.
    static let appleSocialTypes = [
        "Twitter": "twitter", "Facebook": "facebook", "LinkedIn": "linkedin", "Flickr": "flickr",
        "MySpace": "myspace", "SinaWeibo": "sinaweibo", "TencentWeibo": "tencentweibo", "Yelp": "yelp",
        "GameCenter": "gamecenter",
    ]

    /// vobject's reading of one N component or list: a string or a list of strings, as one text.
    static func joined(_ value: Any?) -> String {
        if let list = value as? [String] { return list.joined(separator: ", ") }
        return value as? String ?? ""
    }

    @Test(
        "vobject reads every exported field (3.0 and 4.0) as the contact that was exported",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)),
        arguments: VCardVersion.allCases)
    func exportReadByVobject(version: VCardVersion) throws {
        let records = Self.contacts().map(InteropRandomContactFactory.expectedAfterRoundTrip)
        let text = VCard.encode(records, version: version)
        let cards = try Self.vobjectRead(text)
        try #require(cards.count == records.count, "vobject read \(cards.count) of \(records.count) cards")
        var mismatches: [String] = []
        func check(_ record: ContactRecord, _ field: String, _ read: String, _ written: String) {
            if read != written {
                mismatches.append(
                    "\(record.identifier) \(field): vobject read \(read.debugDescription), exported \(written.debugDescription)"
                )
            }
        }
        for (record, card) in zip(records, cards) {
            check(record, "UID", card["uid"] as? String ?? "", record.identifier)
            check(record, "FN", card["fn"] as? String ?? "", record.displayName)
            let name = card["n"] as? [String: Any] ?? [:]
            check(record, "N family", Self.joined(name["family"]), record.familyName)
            check(record, "N given", Self.joined(name["given"]), record.givenName)
            check(record, "N additional", Self.joined(name["additional"]), record.middleName)
            check(record, "N prefix", Self.joined(name["prefix"]), record.namePrefix)
            check(record, "N suffix", Self.joined(name["suffix"]), record.nameSuffix)
            check(record, "NICKNAME", Self.joined(card["nickname"]), record.nickname)
            let org = card["org"] as? [String] ?? []
            check(record, "ORG", org.first ?? "", record.organizationName)
            check(record, "ORG units", org.dropFirst().joined(separator: ", "), record.departmentName)
            check(record, "TITLE", card["title"] as? String ?? "", record.jobTitle)
            check(record, "NOTE", card["note"] as? String ?? "", record.note)
            let labels = card["labels"] as? [String: String] ?? [:]
            let phones = card["tel"] as? [[String: Any]] ?? []
            check(
                record, "TEL", phones.map { $0["value"] as? String ?? "" }.description,
                record.phoneNumbers.map(\.value).filter { !$0.isEmpty }.description)
            for (phone, written) in zip(phones, record.phoneNumbers.filter { !$0.value.isEmpty }) {
                if let group = phone["group"] as? String {
                    check(record, "TEL label", labels[group] ?? "", written.label ?? "")
                }
            }
            let emails = (card["email"] as? [[String: Any]] ?? []).map { $0["value"] as? String ?? "" }
            check(
                record, "EMAIL", emails.description,
                record.emailAddresses.map(\.value).filter { !$0.isEmpty }.description)
            let urls = (card["url"] as? [[String: Any]] ?? []).map { $0["value"] as? String ?? "" }
            check(record, "URL", urls.description, record.urlAddresses.map(\.value).filter { !$0.isEmpty }.description)
            let addresses = card["adr"] as? [[String: Any]] ?? []
            let written = record.postalAddresses.filter {
                !($0.street + $0.city + $0.state + $0.postalCode + $0.country + $0.isoCountryCode + $0.subLocality
                    + $0.subAdministrativeArea).isEmpty
            }
            check(record, "ADR count", "\(addresses.count)", "\(written.count)")
            for (read, address) in zip(addresses, written) {
                check(record, "ADR street", Self.joined(read["street"]), address.street)
                check(record, "ADR city", Self.joined(read["city"]), address.city)
                check(record, "ADR region", Self.joined(read["region"]), address.state)
                check(record, "ADR code", Self.joined(read["code"]), address.postalCode)
                check(record, "ADR country", Self.joined(read["country"]), address.country)
            }
            // Issue 26 item 9: a 3.0 birthday without a year is Apple's `X-APPLE-OMIT-YEAR=1604:1604-MM-DD`.
            let omitsYear = version == .v3 && record.birthday?.hasPrefix("--") == true
            let writtenBirthday = omitsYear ? "1604" + record.birthday!.dropFirst(1) : record.birthday ?? ""
            let birthday = (card["bday"] as? String ?? "").filter { $0 != "-" }
            check(record, "BDAY", birthday, writtenBirthday.filter { $0 != "-" })
            if version == .v3, let bday = card["bday"] as? String {
                check(record, "BDAY as written", bday, writtenBirthday)
                let parameters = card["bday_params"] as? [String: [String]] ?? [:]
                check(
                    record, "BDAY X-APPLE-OMIT-YEAR", parameters["X-APPLE-OMIT-YEAR"]?.joined() ?? "",
                    omitsYear ? "1604" : "")
            }
            check(record, "PHOTO", card["photo"] as? String ?? "", record.imageData?.base64EncodedString() ?? "")
            let extras = card["x"] as? [String: [[String: Any]]] ?? [:]
            func extra(_ name: String) -> [String] { (extras[name] ?? []).map { $0["value"] as? String ?? "" } }
            check(record, "X-PHONETIC-FIRST-NAME", extra("x-phonetic-first-name").joined(), record.phoneticGivenName)
            check(record, "X-PHONETIC-MIDDLE-NAME", extra("x-phonetic-middle-name").joined(), record.phoneticMiddleName)
            check(record, "X-PHONETIC-LAST-NAME", extra("x-phonetic-last-name").joined(), record.phoneticFamilyName)
            check(record, "X-PHONETIC-ORG", extra("x-phonetic-org").joined(), record.phoneticOrganizationName)
            check(record, "X-MAIDENNAME", extra("x-maidenname").joined(), record.previousFamilyName)
            check(
                record, "X-ABRELATEDNAMES", extra("x-abrelatednames").description,
                record.contactRelations.map(\.value).filter { !$0.isEmpty }.description)
            check(
                record, "X-SOCIALPROFILE", extra("x-socialprofile").description,
                record.socialProfiles.map(\.urlString).description)
            // Issue 26 item 8: Apple's `type=<service>;x-user=<username>` parameters.
            for (read, profile) in zip(extras["x-socialprofile"] ?? [], record.socialProfiles) {
                let parameters = read["params"] as? [String: [String]] ?? [:]
                // vobject 0.9.9 does not undo RFC 6868's caret escapes (^^, ^', ^n).
                if !profile.username.contains(where: { "^\"\n".contains($0) }) {
                    check(record, "X-SOCIALPROFILE x-user", parameters["X-USER"]?.joined() ?? "", profile.username)
                }
                if let type = Self.appleSocialTypes[profile.service] {
                    check(
                        record, "X-SOCIALPROFILE type", (parameters["TYPE"] ?? []).first?.lowercased() ?? "", type)
                }
            }
            // Issue 26 item 7: the service's own URI scheme, `x-apple:` only where it has none.
            check(
                record, "IMPP", extra("impp").description,
                record.instantMessageAddresses.map { (Self.imppSchemes[$0.service] ?? "x-apple") + ":" + $0.username }
                    .description)
        }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) fields differ; first: \(mismatches.prefix(8).joined(separator: "\n"))")
    }
}
