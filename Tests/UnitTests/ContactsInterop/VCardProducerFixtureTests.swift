import AppGroupStore
import ContactsInterop
import Foundation
import Testing

/// Issue 26 items 1–9: what Evolution, Outlook, KDE, Roundcube, Horde, Google, sabre/vobject,
/// DAVx5/Android and Apple write imports into the CNContact fields Apple's importer uses, field by
/// field; what cannot be read is reported with its line and rule; the 3.0 and 4.0 exports contain the
/// forms the dominant readers understand and read back the same.
@Suite("vCard: other producers' cards (issue 26)")
struct InteropVCardProducerFixtureTests {
    @Test(
        "Each producer's card imports as its expected JSON, warns at its lines, exports the expected lines",
        arguments: VCardProducerFixtures.all)
    func fixture(_ fixture: VCardWriterFixture) throws {
        try InteropVCardWriterFixtureTests.verify(fixture)
    }

    @Test("Every one of issue 26's items 1–9 has a fixture")
    func everyItemHasAFixture() {
        #expect(Set(VCardProducerFixtures.all.map(\.defect)) == Set(1...9))
    }

    @Test("RELATED naming another card of the file by its urn:uuid UID gets that card's name; others stay as written")
    func relatedReference() {
        let text = """
            BEGIN:VCARD\nVERSION:4.0\nUID:urn:uuid:aaaa\nFN:Ada Lovelace\nN:Lovelace;Ada;;;
            RELATED;TYPE=spouse:urn:uuid:bbbb\nRELATED;TYPE=friend:urn:uuid:not-in-file\nEND:VCARD
            BEGIN:VCARD\nVERSION:4.0\nUID:urn:uuid:bbbb\nFN:William King\nN:King;William;;;\nEND:VCARD\n
            """
        let result = VCard.decode(text)
        #expect(result.problems.isEmpty)
        #expect(
            result.contacts.first?.contactRelations == [
                .init(label: "_$!<Spouse>!$_", value: "William King"),
                .init(label: "_$!<Friend>!$_", value: "urn:uuid:not-in-file"),
            ])
    }

    @Test("A card without END followed by a complete card and a stray END is still reported, not nested")
    func missingEndIsNotNesting() {
        let text = "BEGIN:VCARD\nN:Two;;;;\nBEGIN:VCARD\nN:Three;;;;\nEND:VCARD\nEND:VCARD\n"
        let result = VCard.decode(text)
        #expect(result.contacts.map(\.familyName) == ["Three"])
        #expect(result.errors.map(\.line) == [1, 6])
    }

    @Test("An X-ANNIVERSARY or X-SPOUSE the card already has as X-ABDATE or X-ABRELATEDNAMES is not added twice")
    func extensionDuplicates() {
        let text = """
            BEGIN:VCARD\nVERSION:3.0\nN:Dup;Card;;;\nX-SPOUSE:Jane\nitem1.X-ABRELATEDNAMES:Jane
            item1.X-ABLabel:_$!<Spouse>!$_\nX-ANNIVERSARY:2009-08-08\nitem2.X-ABDATE:2009-08-08
            item2.X-ABLabel:_$!<Anniversary>!$_\nX-MANAGER:Jane\nUID:dup\nEND:VCARD\n
            """
        let record = VCard.decode(text).contacts.first
        #expect(record?.dates == [.init(label: "_$!<Anniversary>!$_", value: "2009-08-08")])
        // Jane as a spouse once, and as a manager: a different relation.
        #expect(
            record?.contactRelations == [
                .init(label: "_$!<Spouse>!$_", value: "Jane"), .init(label: "_$!<Manager>!$_", value: "Jane"),
            ])
    }

    @Test("A social service TYPE cannot carry, or Apple's word in another case, round-trips through x-service")
    func socialServiceFallback() {
        var record = ContactRecord(identifier: "s")
        for service in ["Mastodon, Social", "home", "twitter", "Twitter", "GitHub"] {
            var profile = ContactRecord.LabeledSocialProfile(label: nil)
            profile.service = service
            profile.username = "u"
            record.socialProfiles = [profile]
            for version in VCardVersion.allCases {
                #expect(VCard.decode(VCard.encode([record], version: version)).contacts == [record], "\(service)")
            }
        }
        let lines = InteropVCardWriterFixtureTests.unfolded(VCard.encode([record]))
        #expect(lines.contains("X-SOCIALPROFILE;type=GitHub;x-user=u:"))
    }
}
