import Foundation
import TestSupport
import Testing

/// The documentation-sample-shaped provider (`Examples/sample-provider`: only `import ContactProvider`
/// in its main file, an `actor` enumerator, vCards decoded with `CNContactVCardSerialization`),
/// built in Swift 6 and Swift 5 mode, syncs end to end.
@Suite("End to end: a vCard provider with an actor enumerator")
struct SampleProviderTests {
    private func writeCard(_ id: String, _ body: String, in group: TemporaryAppGroup) throws {
        let folder = group.path + "/vcards"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\n" + body + "END:VCARD\r\n"
        try Data(card.utf8).write(to: URL(fileURLWithPath: folder + "/\(id).vcf"))
    }

    private func systemNames(_ group: TemporaryAppGroup) throws -> [String: String] {
        let result = try host(["system", "list", "--json"], in: group)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var names: [String: String] = [:]
        for contact in array {
            let id = try #require(contact["identifier"] as? String)
            names[id] = [contact["givenName"] as? String, contact["familyName"] as? String]
                .compactMap { $0 }.joined(separator: " ")
        }
        return names
    }

    @Test(
        "pages of vCards arrive; an edit and a deletion converge through a restarted content enumeration",
        arguments: ["sample-provider", "sample-provider-swift5"])
    func syncsAndConverges(executable: String) throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path(executable), "--page-size", "2"], in: group)
            try writeCard(
                "ada", "N:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nTEL;TYPE=CELL:+44 20 7946 0000\r\n", in: group)
            try writeCard(
                "bob", "N:Smith;Bob;;;\r\nFN:Bob Smith\r\nEMAIL;TYPE=INTERNET,WORK:bob@example.com\r\n", in: group)
            try writeCard("cleo", "N:Doe;Cleo;;;\r\nFN:Cleo Doe\r\nBDAY:1990-04-01\r\n", in: group)

            let first = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(first["enumeration"] as? String == "content")
            #expect(first["pages"] as? Int == 2)
            #expect(try systemNames(group) == ["ada": "Ada Lovelace", "bob": "Bob Smith", "cleo": "Cleo Doe"])

            let unchanged = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(unchanged["enumeration"] as? String == "changes")
            #expect(unchanged["updated"] as? Int == 0)

            try FileManager.default.removeItem(atPath: group.path + "/vcards/bob.vcf")
            try writeCard("ada", "N:King;Ada;;;\r\nFN:Ada King\r\n", in: group)
            let second = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(second["restarted"] as? Bool == true, "changeAnchorExpired restarts content enumeration")
            #expect(try systemNames(group) == ["ada": "Ada King", "cleo": "Cleo Doe"])
            try stopProvider(group)
        }
    }

    @Test("a malformed vCard fails the sync with CNError's message and line; nothing is dropped silently")
    func malformedCard() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("sample-provider")], in: group)
            try writeCard("ada", "N:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\n", in: group)
            try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken\r\n".utf8)
                .write(to: URL(fileURLWithPath: group.path + "/vcards/broken.vcf"))
            let failed = try host(["signal", "--wait", "--json"], in: group, expect: 1)
            let report = try jsonObject(failed)
            let error = try #require(report["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(message.contains("malformed") && message.contains("line 1"), "\(message)")
            try stopProvider(group)
        }
    }
}
