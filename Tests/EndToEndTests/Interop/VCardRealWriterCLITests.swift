import Foundation
import TestSupport
import Testing

/// Issue 14 through the built `contacts-host`: what real writers write imports whole, each problem is
/// reported as FILE:LINE and costs no card; labels with spaces on the command line; urn:uuid UIDs.
@Suite("Interop: real writers' vCards through the built contacts-host")
struct VCardRealWriterCLITests {
    @Test(
        "An iOS 6 card (\\r\\r\\n), a Nokia card with colon-less lines and a broken photo all import; warnings name FILE:LINE"
    )
    func problemsCostNoCard() throws {
        try withTemporaryAppGroup { group in
            let ios6 = [
                "BEGIN:VCARD", "VERSION:3.0", "N:Appleseed;Kate;;;", "NOTE:fol", " ded", "UID:ios6", "END:VCARD",
            ]
            .map { $0 + "\r\r\n" }.joined()
            let nokia = InteropFixtures.crlf([
                "BEGIN:VCARD", "VERSION:2.1", "N:Smith;Anna", "FN", "# comment", "UID:nokia", "END:VCARD",
            ])
            let photo = InteropFixtures.crlf([
                "BEGIN:VCARD", "VERSION:3.0", "N:Broken;Photo;;;", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJR",
                "UID:photo",
                "END:VCARD",
            ])
            var bytes = Data((ios6 + nokia + photo).utf8)
            // A Latin-1 line with no CHARSET (line 23), after the three cards (FN at 11, # at 12, PHOTO at 18).
            bytes +=
                Data("BEGIN:VCARD\r\nVERSION:3.0\r\nN:M".utf8) + Data([0xFC])
                + Data("ller;Hans;;;\r\nUID:latin\r\nEND:VCARD\r\n".utf8)
            let path = group.path + "/writers.vcf"
            try bytes.write(to: URL(fileURLWithPath: path))

            let result = try host(["import", path], in: group)
            #expect(result.stdout == InteropFixtures.summary(4, added: 4, updated: 0, skipped: 0) + "\n", "\(result)")
            let problems = result.stderrLines
            #expect(
                problems.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
                    == ["\(path):11", "\(path):12", "\(path):18", "\(path):23"], "\(problems)")
            #expect(
                try InteropFixtures.identifiers(try host(["list", "--json"], in: group)).sorted()
                    == ["ios6", "latin", "nokia", "photo"])
            let kate = try jsonObject(try host(["get", "ios6", "--json"], in: group))
            #expect(kate["note"] as? String == "folded")
            let hans = try jsonObject(try host(["get", "latin", "--json"], in: group))
            #expect(hans["familyName"] as? String == "Müller")
        }
    }

    @Test("add --phone \"Label With Space=NUMBER\" stores the label and the number apart")
    func phoneLabelWithSpace() throws {
        try withTemporaryAppGroup { group in
            try host(["add", "--id", "p", "--given-name", "Pat", "--phone", "Label With Space=+1 555 0100"], in: group)
            let pat = try jsonObject(try host(["get", "p", "--json"], in: group))
            let phones = try #require(pat["phoneNumbers"] as? [[String: Any]])
            #expect(phones.first?["label"] as? String == "Label With Space")
            #expect(phones.first?["value"] as? String == "+1 555 0100")
        }
    }

    @Test("A urn:uuid: contact exported and imported again is updated, not added twice")
    func urnUUIDReimport() throws {
        try withTemporaryAppGroup { group in
            let card = InteropFixtures.crlf([
                "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff", "FN:Uu Id",
                "N:Id;Uu;;;",
                "TEL:+1 555 0100,,123#", "END:VCARD",
            ])
            let path = try InteropFixtures.write(card, named: "uuid.vcf", in: group)
            try host(["import", path], in: group)
            for version in ["3.0", "4.0"] {
                let exported = try host(["export", "--vcard", "--version", version], in: group)
                #expect(exported.stdout.contains("UID:urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff\r\n"))
                #expect(exported.stdout.contains(#"+1 555 0100\,\,123#"#))
                let again = try InteropFixtures.write(exported.stdout, named: "again.vcf", in: group)
                #expect(
                    try host(["import", again], in: group).stdout == InteropFixtures.summary(
                        1, added: 0, updated: 1, skipped: 0) + "\n")
            }
            #expect(
                try InteropFixtures.identifiers(try host(["list", "--json"], in: group)) == [
                    "urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff"
                ])
        }
    }

    @Test(
        "Issue 26: Evolution's and Outlook's extensions, a bare nested card and a data:base64 photo import as Apple's fields; export writes Apple's forms"
    )
    func otherProducers() throws {
        try withTemporaryAppGroup { group in
            let text = InteropFixtures.crlf([
                "BEGIN:VCARD", "VERSION:3.0", "UID:evo", "N:Doe;John;;;", "FN:John Doe",  // 1-5
                "X-EVOLUTION-SPOUSE:Maria", "X-EVOLUTION-ANNIVERSARY:2005-06-11",  // 6-7
                "X-AIM;TYPE=HOME;X-EVOLUTION-UI-SLOT=1:johnny5@aol.com", "BDAY:--05-17", "END:VCARD",  // 8-10
                "BEGIN:VCARD", "VERSION:2.1", "N:Boss;Big", "X-MS-MANAGER;TYPE=N:TheManagerName",  // 11-14
                "BEGIN:VCARD", "VERSION:2.1", "N:Friday;Girl", "END:VCARD",  // 15-18: nested, no AGENT line
                "UID:outlook", "END:VCARD",  // 19-20
                "BEGIN:VCARD", "VERSION:4.0", "FN:No Type", "N:Type;No;;;",  // 21-24
                "PHOTO:data:base64\\,/9j/4AAQSkZJRg==", "X-SOCIALPROFILE;type=github:https://github.com/nt",  // 25-26
                "UID:photo", "END:VCARD",
            ])
            let path = try InteropFixtures.write(text, named: "producers.vcf", in: group)
            let result = try host(["import", path], in: group)
            #expect(result.stdout == InteropFixtures.summary(3, added: 3, updated: 0, skipped: 0) + "\n", "\(result)")
            #expect(
                result.stderrLines.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
                    == ["\(path):15", "\(path):25"], "\(result.stderrLines)")

            let john = try jsonObject(try host(["get", "evo", "--json"], in: group))
            let relations = try #require(john["contactRelations"] as? [[String: Any]])
            #expect(relations.first?["label"] as? String == "_$!<Spouse>!$_")
            #expect(relations.first?["value"] as? String == "Maria")
            let dates = try #require(john["dates"] as? [[String: Any]])
            #expect(dates.first?["label"] as? String == "_$!<Anniversary>!$_")
            #expect(dates.first?["value"] as? String == "2005-06-11")
            let im = try #require(john["instantMessageAddresses"] as? [[String: Any]])
            #expect(im.first?["service"] as? String == "AIM")
            let boss = try jsonObject(try host(["get", "outlook", "--json"], in: group))
            let manager = try #require((boss["contactRelations"] as? [[String: Any]])?.first)
            #expect(manager["label"] as? String == "_$!<Manager>!$_")
            let photo = try jsonObject(try host(["get", "photo", "--json"], in: group))
            #expect(!(photo["imageData"] is String))
            #expect((photo["socialProfiles"] as? [[String: Any]])?.first?["service"] as? String == "github")

            let exported = try host(["export", "--vcard", "--version", "3.0"], in: group).stdout
            for line in [
                "BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-17", "IMPP;X-SERVICE-TYPE=AIM;TYPE=HOME:aim:johnny5@aol.com",
                "X-SOCIALPROFILE;type=github:https://github.com/nt", "item1.X-ABLabel:_$!<Anniversary>!$_",
            ] {
                #expect(exported.contains(line + "\r\n"), "\(line) in\n\(exported)")
            }
            let again = try InteropFixtures.write(exported, named: "again.vcf", in: group)
            let reimport = try host(["import", again], in: group)
            #expect(reimport.stdout == InteropFixtures.summary(3, added: 0, updated: 3, skipped: 0) + "\n")
            #expect(reimport.stderrLines.isEmpty, "\(reimport.stderrLines)")
        }
    }
}
