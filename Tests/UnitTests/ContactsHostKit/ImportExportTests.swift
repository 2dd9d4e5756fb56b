import AppGroupStore
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// contacts-host import and export, run in process with the test's App Group (`HostRunner.inProcess`); reading
/// standard input needs a real process and stays in EndToEndTests/CLI/ImportExportCLITests.swift.
@Suite("contacts-host import and export, in process")
struct ImportExportTests {
    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("import reads this tool's export document")
    func importExportDocument() async throws {
        try await withTemporaryAppGroup { group in
            let path = group.path + "/export.json"
            try write(
                #"{"format":1,"kind":"contacts","contacts":[{"identifier":"e1","givenName":"Eve","birthday":"--12-24"},{"identifier":"e2","organizationName":"Org"}]}"#,
                to: path)
            let output = await HostRunner.inProcess.succeed(["import", path], in: group)
            #expect(output == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let all = try CLIHarness.database(group).all()
            #expect(all.map(\.identifier) == ["e1", "e2"])
            #expect(all.first?.birthday == "--12-24")
        }
    }

    @Test("import replaces existing identifiers and counts them as updated")
    func importReplaces() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(["add", "--id", "x", "--given-name", "Old", "--phone", "1"], in: group)
            let path = group.path + "/list.json"
            try write(#"[{"identifier":"x","givenName":"New"},{"identifier":"y","givenName":"Why"}]"#, to: path)
            #expect(
                await HostRunner.inProcess.succeed(["import", path], in: group)
                    == "imported 2 contacts (1 added, 1 updated, 0 skipped)")
            let x = try #require(try CLIHarness.database(group).get("x"))
            #expect(x.givenName == "New")
            #expect(x.phoneNumbers.isEmpty)
        }
    }

    @Test("import reads the seed demo's ContactItems.json")
    func importSeedFormat() async throws {
        try await withTemporaryAppGroup { group in
            let path = group.path + "/ContactItems.json"
            try write(
                """
                [
                  {"identifier": "s1", "firstName": "Seed", "lastName": "One", "phoneNumber": "+1 555 0101", "emailAddress": "one@example.org"},
                  {"identifier": "s2", "firstName": "Seed", "lastName": "Two"}
                ]
                """, to: path)
            #expect(
                await HostRunner.inProcess.succeed(["import", path], in: group)
                    == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let text = await HostRunner.inProcess.succeed(["get", "s1", "--json"], in: group)
            let object = try #require(try CLIHarness.json(text) as? [String: Any])
            #expect(object["givenName"] as? String == "Seed")
            #expect(object["familyName"] as? String == "One")
            #expect(
                object["phoneNumbers"] as? [[String: String]] == [["label": "_$!<Mobile>!$_", "value": "+1 555 0101"]])
            #expect(object["emailAddresses"] as? [[String: String]] == [["value": "one@example.org"]])
            #expect(try CLIHarness.database(group).get("s2")?.familyName == "Two")
        }
    }

    @Test("A malformed file fails with its path and line on stderr and leaves the database unchanged")
    func importMalformed() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(["add", "--id", "keep", "--given-name", "Keep"], in: group)
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
            let result = await HostRunner.inProcess.run(["import", path], in: group)
            CLIHarness.expectFailure(result, mentioning: [path, "line 4", "contact #3"])
            #expect(CLIHarness.databaseFiles(group) == before)

            let syntax = group.path + "/syntax.json"
            try write("[\n  {\"identifier\": \"a\"},\n  {\"identifier\" \"b\"}\n]\n", to: syntax)
            let syntaxResult = await HostRunner.inProcess.run(["import", syntax], in: group)
            CLIHarness.expectFailure(syntaxResult, mentioning: [syntax, "line 3"])
            #expect(CLIHarness.databaseFiles(group) == before)
        }
    }

    @Test("A file with one unstorable identifier imports nothing")
    func importInvalidIdentifier() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(["add", "--id", "keep", "--given-name", "Keep"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let path = group.path + "/control.json"
            try write(
                #"[{"identifier":"fine","givenName":"F"},{"identifier":"bad\u0001id","givenName":"B"}]"#, to: path)
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["import", path], in: group), mentioning: ["invalid identifier"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).get("fine") == nil)
        }
    }

    @Test("A missing or empty file fails with exit 1")
    func importMissing() async throws {
        try await withTemporaryAppGroup { group in
            let missing = group.path + "/nope.json"
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["import", missing], in: group), mentioning: [missing])
            let empty = group.path + "/empty.json"
            try write("", to: empty)
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["import", empty], in: group), mentioning: [empty, "empty"])
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }

    @Test("export --json writes a document that imports into another App Group unchanged")
    func exportRoundTrip() async throws {
        try await withTemporaryAppGroups { source, target in
            try CLIHarness.database(source).add(CLIHarness.richContact("rich"))
            await HostRunner.inProcess.succeed(
                [
                    "add", "--id", "cli", "--given-name", "Cli", "--phone", "work=1", "--phone", "2", "--birthday",
                    "--01-02",
                ], in: source)
            await HostRunner.inProcess.succeed(["add", "--id", "gone", "--given-name", "Gone"], in: source)
            await HostRunner.inProcess.succeed(["delete", "gone"], in: source)

            let exported = await HostRunner.inProcess.succeed(["export", "--json"], in: source)
            let document = try #require(try CLIHarness.json(exported) as? [String: Any])
            #expect(document["format"] as? Int == 1)
            #expect(document["kind"] as? String == "contacts")
            #expect((document["contacts"] as? [Any])?.count == 2)
            #expect(await HostRunner.inProcess.succeed(["export"], in: source) == exported)

            let file = target.path + "/exported.json"
            try write(exported, to: file)
            #expect(
                await HostRunner.inProcess.succeed(["import", file], in: target)
                    == "imported 2 contacts (2 added, 0 updated, 0 skipped)")
            let original = try CLIHarness.database(source).all()
            #expect(original.map(\.identifier) == ["rich", "cli"])
            #expect(try CLIHarness.database(target).all() == original)
            #expect(try CLIHarness.database(target).get("rich") == CLIHarness.richContact("rich"))
            #expect(await HostRunner.inProcess.succeed(["export", "--json"], in: target) == exported)
        }
    }
}
