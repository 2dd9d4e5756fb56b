import Foundation
import TestSupport
import Testing

/// Every less common CNContact value goes app database → provider (`CNContact`) → system store →
/// `--json`, and through the vCard provider, unchanged.
@Suite("End to end: every CNContact value syncs")
struct ContactDetailsSyncTests {
    static var detailed: [String: Any] {
        [
            "identifier": "ada", "givenName": "Ada", "familyName": "Lovelace", "contactType": "organization",
            "organizationName": "Analytical Engines", "previousFamilyName": "Byron", "phoneticGivenName": "AY-duh",
            "phoneticMiddleName": "KING", "phoneticFamilyName": "LUV-layss", "phoneticOrganizationName": "an-uh-LIT",
            "nonGregorianBirthday": [
                "calendar": "chinese", "era": 78, "year": 40, "month": 3, "day": 15, "isLeapMonth": true,
            ],
            "dates": [
                ["label": "_$!<Anniversary>!$_", "value": "2009-08-08"], ["label": "First met", "value": "--02-29"],
            ],
            "contactRelations": [["label": "_$!<Manager>!$_", "value": "Grace Hopper"]],
            "socialProfiles": [
                [
                    "service": "Twitter", "username": "ada", "userIdentifier": "1815",
                    "urlString": "https://twitter.com/ada",
                ]
            ],
            "instantMessageAddresses": [["label": "_$!<Home>!$_", "username": "ada.l", "service": "Skype"]],
        ]
    }

    @Test("imported into the app database, sent by demo-provider as CNContacts, equal in the system store")
    func throughTheBridge() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            let file = group.path + "/detailed.json"
            try JSONSerialization.data(withJSONObject: ["format": 1, "kind": "contacts", "contacts": [Self.detailed]])
                .write(to: URL(fileURLWithPath: file))
            try host(["import", file], in: group)
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 1)
            let system = try #require(try contactsByID(try host(["system", "list", "--json"], in: group))["ada"])
            for key in Self.detailed.keys {
                #expect(system.contains("\"\(key)\""), "\(key) was dropped on the way: \(system)")
            }
            try stopProvider(group)
        }
    }

    @Test("a vCard with every value, decoded by the provider with CNContactVCardSerialization, arrives whole")
    func throughTheVCardProvider() throws {
        try withTemporaryAppGroup { group in
            // The app's own database exports the card, so the provider reads exactly what vCard export writes.
            try host(["enable", "--extension", BuiltProducts.path("sample-provider")], in: group)
            let file = group.path + "/detailed.json"
            try JSONSerialization.data(withJSONObject: ["format": 1, "kind": "contacts", "contacts": [Self.detailed]])
                .write(to: URL(fileURLWithPath: file))
            try host(["import", file], in: group)
            let card = try host(["export", "--vcard"], in: group).stdout
            try FileManager.default.createDirectory(atPath: group.path + "/vcards", withIntermediateDirectories: true)
            try Data(card.utf8).write(to: URL(fileURLWithPath: group.path + "/vcards/ada.vcf"))
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 1)
            try stopProvider(group)
        }
    }
}
