import Foundation
import TestSupport
import Testing

/// `contacts-host import FILE.vcf` and `import -`, run as the built binary.
@Suite("Interop: vCard import through the built contacts-host")
struct VCardImportInteropTests {
    /// A card as Apple's Contacts exports it (3.0, CRLF, grouped labels, folded PHOTO).
    static func appleCard(uid: String = "apple-john") -> [String] {
        [
            "BEGIN:VCARD",
            "VERSION:3.0",
            "PRODID:-//Apple Inc.//iPhone OS 17.5//EN",
            "N:Appleseed;John;Quincy;Dr.;Jr.",
            "FN:Dr. John Quincy Appleseed Jr.",
            "NICKNAME:Johnny",
            "ORG:Acme;R&D",
            "TITLE:Senior Engineer",
            "item1.TEL;type=pref:+1 (408) 555-0101",
            "item1.X-ABLabel:_$!<Mobile>!$_",
            "item2.TEL:+1 408 555 0199",
            "item2.X-ABLabel:Studio",
            "TEL;type=WORK;type=VOICE:+1 408 555 0102",
            "EMAIL;type=INTERNET;type=HOME;type=pref:john@example.com",
            "item3.EMAIL;type=INTERNET:jq@studio.example",
            "item3.X-ABLabel:Studio",
            "ADR;type=HOME;type=pref:;;1 Infinite Loop;Cupertino;CA;95014;United States",
            "item4.ADR;type=WORK:;;1 Apple Park Way;Cupertino;CA;95014;United States",
            "item4.X-ABADR:us",
            "item5.URL;type=pref:https://example.com/john",
            "item5.X-ABLabel:_$!<HomePage>!$_",
            "URL;type=WORK:https://acme.example/rnd",
            "NOTE:First line\\nSecond line\\, with a comma\\; and a semicolon",
            "BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17",
        ]
            + InteropFixtures.foldedPhotoLines(InteropFixtures.jpegBytes)
            + ["UID:\(uid)", "END:VCARD"]
    }

    /// What `get apple-john --json` must print for `appleCard()`.
    static var appleCardJSON: [String: Any] {
        [
            "identifier": "apple-john",
            "namePrefix": "Dr.", "givenName": "John", "middleName": "Quincy", "familyName": "Appleseed",
            "nameSuffix": "Jr.", "nickname": "Johnny",
            "organizationName": "Acme", "departmentName": "R&D", "jobTitle": "Senior Engineer",
            "phoneNumbers": [
                ["label": "_$!<Mobile>!$_", "value": "+1 (408) 555-0101"],
                ["label": "Studio", "value": "+1 408 555 0199"],
                ["label": "_$!<Work>!$_", "value": "+1 408 555 0102"],
            ],
            "emailAddresses": [
                ["label": "_$!<Home>!$_", "value": "john@example.com"],
                ["label": "Studio", "value": "jq@studio.example"],
            ],
            "postalAddresses": [
                [
                    "label": "_$!<Home>!$_", "street": "1 Infinite Loop", "city": "Cupertino", "state": "CA",
                    "postalCode": "95014", "country": "United States",
                ],
                [
                    "label": "_$!<Work>!$_", "street": "1 Apple Park Way", "city": "Cupertino", "state": "CA",
                    "postalCode": "95014", "country": "United States", "isoCountryCode": "us",
                ],
            ],
            "urlAddresses": [
                ["label": "_$!<HomePage>!$_", "value": "https://example.com/john"],
                ["label": "_$!<Work>!$_", "value": "https://acme.example/rnd"],
            ],
            "note": "First line\nSecond line, with a comma; and a semicolon",
            "birthday": "--05-17",
            "imageData": InteropFixtures.jpegBytes.base64EncodedString(),
        ]
    }

    @Test("An Apple Contacts export imports with every field intact")
    func importAppleExport() throws {
        try withTemporaryAppGroup { group in
            let path = try InteropFixtures.write(InteropFixtures.crlf(Self.appleCard()), named: "john.vcf", in: group)

            let result = try host(["import", path], in: group)
            #expect(result.stdout == InteropFixtures.summary(1, added: 1, updated: 0, skipped: 0) + "\n")
            #expect(result.stderr.isEmpty, "a clean Apple export must import without warnings: \(result.stderr)")

            let contact = try jsonObject(try host(["get", "apple-john", "--json"], in: group))
            let phones = try #require(contact["phoneNumbers"] as? [[String: String]])
            #expect(phones.first == ["label": "_$!<Mobile>!$_", "value": "+1 (408) 555-0101"])
            #expect(phones.dropFirst().first == ["label": "Studio", "value": "+1 408 555 0199"])
            #expect(contact["birthday"] as? String == "--05-17")
            #expect(contact["organizationName"] as? String == "Acme")
            #expect(contact["departmentName"] as? String == "R&D")
            #expect(contact["jobTitle"] as? String == "Senior Engineer")
            #expect(contact["note"] as? String == "First line\nSecond line, with a comma; and a semicolon")
            let image = try #require(contact["imageData"] as? String, "imageData missing")
            #expect(Data(base64Encoded: image) == InteropFixtures.jpegBytes, "the folded PHOTO did not survive")

            // And nothing else was lost or invented.
            let expected = try JSONSerialization.data(withJSONObject: Self.appleCardJSON, options: [.sortedKeys])
            #expect(
                try InteropFixtures.canonicalJSON(try host(["get", "apple-john", "--json"], in: group).stdout)
                    == String(decoding: expected, as: UTF8.self))
        }
    }

    /// Three cards; the middle one has BEGIN:VCARD but no END:VCARD. Returns the file's lines and the
    /// 1-based line of the broken card's BEGIN.
    static func fileWithBrokenMiddleCard() -> (lines: [String], badLine: Int) {
        let first = [
            "BEGIN:VCARD", "VERSION:3.0", "N:One;Ann;;;", "FN:Ann One",
            // A folded line: line numbers count physical lines, not unfolded ones.
            "NOTE:a note long enough to be folded by the wri", " ter onto a second line", "UID:ok-1", "END:VCARD",
        ]
        let broken = ["BEGIN:VCARD", "VERSION:3.0", "N:Two;Bob;;;", "FN:Bob Two", "UID:bad-2"]
        let third = ["BEGIN:VCARD", "VERSION:3.0", "N:Three;Cy;;;", "FN:Cy Three", "UID:ok-3", "END:VCARD"]
        return (first + broken + third, first.count + 1)
    }

    @Test("A malformed middle card is skipped and reported as FILE:LINE; the others import")
    func malformedMiddleCard() throws {
        try withTemporaryAppGroup { group in
            let (lines, badLine) = Self.fileWithBrokenMiddleCard()
            let path = try InteropFixtures.write(InteropFixtures.crlf(lines), named: "three.vcf", in: group)

            let result = try host(["import", path], in: group)
            #expect(result.stdout == InteropFixtures.summary(2, added: 2, updated: 0, skipped: 1) + "\n")
            let problems = result.stderrLines
            #expect(problems.count == 1, "\(result)")
            #expect(
                problems.first?.hasPrefix("\(path):\(badLine): ") == true,
                "expected \(path):\(badLine): …, got \(problems)")
            #expect(problems.first?.contains("END:VCARD") == true, "\(problems)")

            #expect(try InteropFixtures.identifiers(try host(["list", "--json"], in: group)) == ["ok-1", "ok-3"])
            let ann = try jsonObject(try host(["get", "ok-1", "--json"], in: group))
            #expect(ann["note"] as? String == "a note long enough to be folded by the writer onto a second line")
        }
    }

    @Test("--stop-on-error aborts at the malformed card with exit 1 and writes nothing")
    func malformedMiddleCardStopOnError() throws {
        try withTemporaryAppGroup { group in
            let (lines, badLine) = Self.fileWithBrokenMiddleCard()
            let path = try InteropFixtures.write(InteropFixtures.crlf(lines), named: "three.vcf", in: group)

            let result = try host(["import", "--stop-on-error", path], in: group, expect: 1)
            #expect(result.stdout.isEmpty, "\(result)")
            let problems = result.stderrLines
            #expect(!problems.isEmpty, "\(result)")
            #expect(problems.allSatisfy { $0.contains("\(path):\(badLine): ") }, "\(problems)")
            #expect(problems.last?.hasPrefix("error: ") == true, "\(problems)")

            #expect(try host(["list"], in: group).stdout.isEmpty, "--stop-on-error must write nothing")
            #expect(try jsonArray(try host(["list", "--json"], in: group)).isEmpty)
            _ = try host(["get", "ok-1"], in: group, expect: 1)
        }
    }

    @Test("import - reads a vCard 2.1 card with QUOTED-PRINTABLE, CHARSET=UTF-8 and soft line breaks from stdin")
    func importStdinQuotedPrintable() throws {
        try withTemporaryAppGroup { group in
            let card = InteropFixtures.crlf([
                "BEGIN:VCARD",
                "VERSION:2.1",
                "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;",
                "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller",
                "TEL;CELL;VOICE:+49 89 1234567",
                // Two soft line breaks, the second one inside the UTF-8 bytes of "ö".
                "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Gr=C3=BC=C3=9Fe aus M=C3=BCnchen, =",
                "sch=C3=",
                "=B6nes Wetter=0D=0Aheute",
                "UID:qp-1",
                "END:VCARD",
            ])
            let result = try host(["import", "-"], in: group, stdin: Data(card.utf8))
            #expect(result.stdout == InteropFixtures.summary(1, added: 1, updated: 0, skipped: 0) + "\n")
            #expect(result.stderr.isEmpty, "\(result)")

            let contact = try jsonObject(try host(["get", "qp-1", "--json"], in: group))
            #expect(contact["familyName"] as? String == "Müller")
            #expect(contact["givenName"] as? String == "Jürgen")
            #expect(contact["note"] as? String == "Grüße aus München, schönes Wetter\nheute")
            #expect(
                contact["phoneNumbers"] as? [[String: String]] == [
                    ["label": "_$!<Mobile>!$_", "value": "+49 89 1234567"]
                ])
        }
    }

    @Test("import - names problems <stdin>:LINE")
    func importStdinProblemLine() throws {
        try withTemporaryAppGroup { group in
            let input = "BEGIN:VCARD\nVERSION:3.0\nFN:Good Card\nUID:good\nEND:VCARD\nEND:VCARD\n"
            let result = try host(["import", "-"], in: group, stdin: Data(input.utf8))
            #expect(result.stdout == InteropFixtures.summary(1, added: 1, updated: 0, skipped: 1) + "\n")
            let problems = result.stderrLines
            #expect(problems.count == 1, "\(result)")
            #expect(problems.first?.hasPrefix("<stdin>:6: ") == true, "\(problems)")
            #expect(try InteropFixtures.identifiers(try host(["list", "--json"], in: group)) == ["good"])
        }
    }

    @Test("Importing the same vCard file again updates every contact and adds none")
    func reimportUpdates() throws {
        try withTemporaryAppGroup { group in
            // The second card has no UID: its generated identifier must be the same on every import.
            let noUID = [
                "BEGIN:VCARD", "VERSION:3.0", "N:Nouid;Nora;;;", "FN:Nora Nouid", "TEL;type=CELL:+1 555 0142",
                "END:VCARD",
            ]
            let text = InteropFixtures.crlf(Self.appleCard() + noUID)
            let path = try InteropFixtures.write(text, named: "two.vcf", in: group)

            #expect(
                try host(["import", path], in: group).stdout == InteropFixtures.summary(
                    2, added: 2, updated: 0, skipped: 0) + "\n")
            let before = try InteropFixtures.canonicalJSON(try host(["list", "--json"], in: group).stdout)
            #expect(try jsonArray(try host(["list", "--json"], in: group)).count == 2)

            let again = try host(["import", path], in: group)
            #expect(again.stdout == InteropFixtures.summary(2, added: 0, updated: 2, skipped: 0) + "\n")
            #expect(try InteropFixtures.canonicalJSON(try host(["list", "--json"], in: group).stdout) == before)
        }
    }
}
