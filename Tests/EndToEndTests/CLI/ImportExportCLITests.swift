import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host import and export, run as the built binary")
struct ImportExportCLITests {
    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("import reads this tool's export document")
    func importExportDocument() throws {
        try withTemporaryAppGroup { group in
            let path = group.path + "/export.json"
            try write(
                #"{"format":1,"kind":"contacts","contacts":[{"identifier":"e1","givenName":"Eve","birthday":"--12-24"},{"identifier":"e2","organizationName":"Org"}]}"#,
                to: path)
            let output = try CLIHarness.succeed(["import", path], in: group)
            #expect(output == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let all = try CLIHarness.database(group).all()
            #expect(all.map(\.identifier) == ["e1", "e2"])
            #expect(all.first?.birthday == "--12-24")
        }
    }

    @Test("import replaces existing identifiers and counts them as updated")
    func importReplaces() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "x", "--given-name", "Old", "--phone", "1"], in: group)
            let path = group.path + "/list.json"
            try write(#"[{"identifier":"x","givenName":"New"},{"identifier":"y","givenName":"Why"}]"#, to: path)
            #expect(try CLIHarness.succeed(["import", path], in: group) == "imported 2 contacts (1 added, 1 updated, 0 skipped)")
            let x = try #require(try CLIHarness.database(group).get("x"))
            #expect(x.givenName == "New")
            #expect(x.phoneNumbers.isEmpty)
        }
    }

    @Test("import reads the seed demo's ContactItems.json")
    func importSeedFormat() throws {
        try withTemporaryAppGroup { group in
            let path = group.path + "/ContactItems.json"
            try write(
                """
                [
                  {"identifier": "s1", "firstName": "Seed", "lastName": "One", "phoneNumber": "+1 555 0101", "emailAddress": "one@example.org"},
                  {"identifier": "s2", "firstName": "Seed", "lastName": "Two"}
                ]
                """, to: path)
            #expect(try CLIHarness.succeed(["import", path], in: group) == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let text = try CLIHarness.succeed(["get", "s1", "--json"], in: group)
            let object = try #require(try CLIHarness.json(text) as? [String: Any])
            #expect(object["givenName"] as? String == "Seed")
            #expect(object["familyName"] as? String == "One")
            #expect(object["phoneNumbers"] as? [[String: String]] == [["label": "_$!<Mobile>!$_", "value": "+1 555 0101"]])
            #expect(object["emailAddresses"] as? [[String: String]] == [["value": "one@example.org"]])
            #expect(try CLIHarness.database(group).get("s2")?.familyName == "Two")
        }
    }

    @Test("import - reads standard input")
    func importStdin() throws {
        try withTemporaryAppGroup { group throws in
            let input = Data(#"[{"identifier":"in1","givenName":"Piped"}]"#.utf8)
            #expect(try CLIHarness.succeed(["import", "-"], in: group, stdin: input) == "imported 1 contacts (1 added, 0 updated, 0 skipped)")
            #expect(try CLIHarness.database(group).get("in1")?.givenName == "Piped")
        }
    }

    @Test("A malformed file fails with its path and line on stderr and leaves the database unchanged")
    func importMalformed() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "keep", "--given-name", "Keep"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let path = group.path + "/bad.json"
            try write(
                """
                [
                  {"identifier": "ok1", "givenName": "One"},
                  {"identifier": "ok2", "givenName": "Two"},
                  {"identifier": "bad", "givenName": ["not", "a", "string"]}
                ]
                """, to: path)
            let result = try ProcessRunner.host(["import", path], in: group)
            CLIHarness.expectFailure(result, mentioning: [path, "line 4", "contact #3"])
            #expect(CLIHarness.databaseFiles(group) == before)

            let syntax = group.path + "/syntax.json"
            try write("[\n  {\"identifier\": \"a\"},\n  {\"identifier\" \"b\"}\n]\n", to: syntax)
            let syntaxResult = try ProcessRunner.host(["import", syntax], in: group)
            CLIHarness.expectFailure(syntaxResult, mentioning: [syntax, "line 3"])
            #expect(CLIHarness.databaseFiles(group) == before)
        }
    }

    @Test("A file with one unstorable identifier imports nothing")
    func importInvalidIdentifier() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "keep", "--given-name", "Keep"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let path = group.path + "/control.json"
            try write(#"[{"identifier":"fine","givenName":"F"},{"identifier":"bad\u0001id","givenName":"B"}]"#, to: path)
            CLIHarness.expectFailure(try ProcessRunner.host(["import", path], in: group), mentioning: ["invalid identifier"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).get("fine") == nil)
        }
    }

    @Test("A malformed standard input is reported as <stdin>")
    func importMalformedStdin() throws {
        try withTemporaryAppGroup { group in
            let result = try ProcessRunner.host(["import", "-"], in: group, stdin: Data("[{\"identifier\": 1}]".utf8))
            CLIHarness.expectFailure(result, mentioning: ["<stdin>", "line 1"])
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }

    @Test("A missing or empty file fails with exit 1")
    func importMissing() throws {
        try withTemporaryAppGroup { group in
            let missing = group.path + "/nope.json"
            CLIHarness.expectFailure(try ProcessRunner.host(["import", missing], in: group), mentioning: [missing])
            let empty = group.path + "/empty.json"
            try write("", to: empty)
            CLIHarness.expectFailure(try ProcessRunner.host(["import", empty], in: group), mentioning: [empty, "empty"])
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }

    @Test("export --json writes a document that imports into another App Group unchanged")
    func exportRoundTrip() throws {
        try withTemporaryAppGroups { source, target in
            try CLIHarness.database(source).add(CLIHarness.richContact("rich"))
            try CLIHarness.succeed(
                ["add", "--id", "cli", "--given-name", "Cli", "--phone", "work=1", "--phone", "2", "--birthday", "--01-02"], in: source)
            try CLIHarness.succeed(["add", "--id", "gone", "--given-name", "Gone"], in: source)
            try CLIHarness.succeed(["delete", "gone"], in: source)

            let exported = try CLIHarness.succeed(["export", "--json"], in: source)
            let document = try #require(try CLIHarness.json(exported) as? [String: Any])
            #expect(document["format"] as? Int == 1)
            #expect(document["kind"] as? String == "contacts")
            #expect((document["contacts"] as? [Any])?.count == 2)
            #expect(try CLIHarness.succeed(["export"], in: source) == exported)

            let file = target.path + "/exported.json"
            try write(exported, to: file)
            #expect(try CLIHarness.succeed(["import", file], in: target) == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let original = try CLIHarness.database(source).all()
            #expect(original.map(\.identifier) == ["rich", "cli"])
            #expect(try CLIHarness.database(target).all() == original)
            #expect(try CLIHarness.database(target).get("rich") == CLIHarness.richContact("rich"))
            #expect(try CLIHarness.succeed(["export", "--json"], in: target) == exported)
        }
    }
}
