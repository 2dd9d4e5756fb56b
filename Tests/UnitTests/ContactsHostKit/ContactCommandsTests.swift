import AppGroupStore
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// The contact commands' parsing and output, run in process with the test's App Group
/// (`HostRunner.inProcess`); what needs the real binary stays in EndToEndTests/CLI/ContactCommandsCLITests.swift.
@Suite("contacts-host contact commands, in process")
struct ContactCommandsTests {
    @Test("add prints only the new identifier and exits 0")
    func addPrintsIdentifier() async throws {
        try await withTemporaryAppGroup { group in
            let result = await HostRunner.inProcess.run(
                ["add", "--given-name", "Ada", "--family-name", "Lovelace"], in: group)
            #expect(result.exitCode == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasSuffix("\n"))
            let identifier = result.output
            #expect(!identifier.contains("\n"))
            #expect(UUID(uuidString: identifier) != nil, "\(result)")
            let stored = try #require(try CLIHarness.database(group).get(identifier))
            #expect(stored.givenName == "Ada")
            #expect(stored.familyName == "Lovelace")
        }
    }

    @Test("add --id uses the given identifier and sets every field option")
    func addWithIdentifier() async throws {
        try await withTemporaryAppGroup { group in
            let output = await HostRunner.inProcess.succeed(
                [
                    "add", "--id", "ada", "--given-name", "Ada", "--family-name", "Lovelace", "--middle-name",
                    "Augusta",
                    "--nickname", "Countess", "--organization", "Engines Ltd", "--department", "R&D", "--job-title",
                    "Analyst",
                    "--phone", "work=+44 1", "--phone", "+44 2", "--email", "ada@example.org", "--url",
                    "https://example.org",
                    "--note", "Notes", "--birthday", "1815-12-10",
                ], in: group)
            #expect(output == "ada")
            let stored = try #require(try CLIHarness.database(group).get("ada"))
            #expect(stored.middleName == "Augusta")
            #expect(stored.nickname == "Countess")
            #expect(stored.organizationName == "Engines Ltd")
            #expect(stored.departmentName == "R&D")
            #expect(stored.jobTitle == "Analyst")
            #expect(
                stored.phoneNumbers == [
                    .init(label: "_$!<Work>!$_", value: "+44 1"), .init(label: "_$!<Mobile>!$_", value: "+44 2"),
                ])
            #expect(stored.emailAddresses == [.init(label: "_$!<Home>!$_", value: "ada@example.org")])
            #expect(stored.urlAddresses.map(\.value) == ["https://example.org"])
            #expect(stored.note == "Notes")
            #expect(stored.birthday == "1815-12-10")
        }
    }

    @Test("A birthday without a year is accepted as --birthday --MM-DD")
    func yearlessBirthday() async throws {
        try await withTemporaryAppGroup { group async throws in
            await HostRunner.inProcess.succeed(
                ["add", "--id", "b", "--given-name", "B", "--birthday", "--05-17"], in: group)
            #expect(try CLIHarness.database(group).get("b")?.birthday == "--05-17")
            #expect(await HostRunner.inProcess.succeed(["get", "b"], in: group).contains("birthday: --05-17"))
        }
    }

    @Test("A duplicate --id fails with one line on stderr naming it, and writes nothing")
    func duplicateIdentifier() async throws {
        try await withTemporaryAppGroup { group async throws in
            await HostRunner.inProcess.succeed(["add", "--id", "dup-1", "--given-name", "First"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let result = await HostRunner.inProcess.run(["add", "--id", "dup-1", "--given-name", "Second"], in: group)
            CLIHarness.expectFailure(result, mentioning: ["'dup-1'"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).get("dup-1")?.givenName == "First")
        }
    }

    @Test("An identifier with a slash can be added, read, duplicated-checked, updated and deleted")
    func slashIdentifier() async throws {
        try await withTemporaryAppGroup { group async throws in
            #expect(
                await HostRunner.inProcess.succeed(["add", "--id", "team/a", "--given-name", "Slash"], in: group)
                    == "team/a")
            #expect(await HostRunner.inProcess.succeed(["get", "team/a"], in: group).contains("name: Slash"))
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["add", "--id", "team/a", "--given-name", "Again"], in: group))
            await HostRunner.inProcess.succeed(["update", "team/a", "--family-name", "Updated"], in: group)
            await HostRunner.inProcess.succeed(["delete", "team/a"], in: group)
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }

    @Test("update changes only the given fields; a repeated --phone replaces the whole list")
    func updateListReplacement() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(
                [
                    "add", "--id", "u", "--given-name", "Old", "--family-name", "Keep", "--phone", "1", "--phone", "2",
                    "--email", "u@example.org",
                ], in: group)
            #expect(
                await HostRunner.inProcess.succeed(
                    ["update", "u", "--phone", "home=3", "--phone", "4", "--phone", "5"], in: group) == "u")
            var stored = try #require(try CLIHarness.database(group).get("u"))
            #expect(
                stored.phoneNumbers == [
                    .init(label: "_$!<Home>!$_", value: "3"), .init(label: "_$!<Mobile>!$_", value: "4"),
                    .init(label: "_$!<Mobile>!$_", value: "5"),
                ])
            #expect(stored.emailAddresses.map(\.value) == ["u@example.org"])

            await HostRunner.inProcess.succeed(["update", "u", "--given-name", "New"], in: group)
            stored = try #require(try CLIHarness.database(group).get("u"))
            #expect(stored.givenName == "New")
            #expect(stored.familyName == "Keep")
            #expect(stored.phoneNumbers.map(\.value) == ["3", "4", "5"])

            await HostRunner.inProcess.succeed(["update", "u", "--phone", "9"], in: group)
            #expect(try CLIHarness.database(group).get("u")?.phoneNumbers.map(\.value) == ["9"])
        }
    }

    @Test("update of an unknown identifier fails and writes nothing")
    func updateUnknown() async throws {
        try await withTemporaryAppGroup { group async throws in
            await HostRunner.inProcess.succeed(["add", "--id", "known", "--given-name", "K"], in: group)
            let before = CLIHarness.databaseFiles(group)
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["update", "ghost", "--given-name", "Boo"], in: group),
                mentioning: ["'ghost'"])
            #expect(CLIHarness.databaseFiles(group) == before)
        }
    }

    @Test("delete removes several contacts at once")
    func deleteSeveral() async throws {
        try await withTemporaryAppGroup { group async throws in
            for identifier in ["d1", "d2", "d3"] {
                await HostRunner.inProcess.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            #expect(await HostRunner.inProcess.succeed(["delete", "d1", "d3"], in: group) == "")
            #expect(try CLIHarness.database(group).all().map(\.identifier) == ["d2"])
            CLIHarness.expectFailure(await HostRunner.inProcess.run(["get", "d1"], in: group), mentioning: ["'d1'"])
        }
    }

    @Test("delete with an unknown identifier fails and deletes nothing")
    func deleteUnknown() async throws {
        try await withTemporaryAppGroup { group async throws in
            for identifier in ["k1", "k2"] {
                await HostRunner.inProcess.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            let before = CLIHarness.databaseFiles(group)
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["delete", "k1", "missing", "k2"], in: group), mentioning: ["'missing'"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).all().map(\.identifier) == ["k1", "k2"])
        }
    }

    @Test("get prints a readable description")
    func getText() async throws {
        try await withTemporaryAppGroup { group async throws in
            await HostRunner.inProcess.succeed(
                [
                    "add", "--id", "g", "--given-name", "Grace", "--family-name", "Hopper", "--organization", "Navy",
                    "--phone", "work=555", "--email", "g@example.org", "--birthday", "1906-12-09", "--note", "Bug",
                ], in: group)
            let text = await HostRunner.inProcess.succeed(["get", "g"], in: group)
            #expect(
                text.split(separator: "\n").map(String.init) == [
                    "identifier: g", "name: Grace Hopper", "organization: Navy", "phone (work): 555",
                    "email (home): g@example.org", "note: Bug", "birthday: 1906-12-09",
                ])
        }
    }

    @Test("get --json prints one contact with Contacts key names")
    func getJSON() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(
                [
                    "add", "--id", "j", "--given-name", "Jo", "--family-name", "Doe", "--phone", "mobile=+1 555",
                    "--email",
                    "work=jo@example.org", "--birthday", "--02-29",
                ], in: group)
            let text = await HostRunner.inProcess.succeed(["get", "j", "--json"], in: group)
            let object = try #require(try CLIHarness.json(text) as? [String: Any])
            #expect(
                Set(object.keys) == [
                    "identifier", "givenName", "familyName", "phoneNumbers", "emailAddresses", "birthday",
                ])
            #expect(object["identifier"] as? String == "j")
            #expect(object["givenName"] as? String == "Jo")
            #expect(object["familyName"] as? String == "Doe")
            let phones = try #require(object["phoneNumbers"] as? [[String: String]])
            #expect(phones == [["label": "_$!<Mobile>!$_", "value": "+1 555"]])
            let emails = try #require(object["emailAddresses"] as? [[String: String]])
            #expect(emails == [["label": "_$!<Work>!$_", "value": "jo@example.org"]])
            #expect(object["birthday"] as? String == "--02-29")
        }
    }

    @Test("get of an unknown identifier fails with exit 1")
    func getUnknown() async throws {
        try await withTemporaryAppGroup { group async throws in
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["get", "nobody"], in: group), mentioning: ["'nobody'"])
            CLIHarness.expectFailure(
                await HostRunner.inProcess.run(["get", "nobody", "--json"], in: group), mentioning: ["'nobody'"])
        }
    }

    @Test("list prints one tab-separated line per contact; list --json prints a JSON array")
    func list() async throws {
        try await withTemporaryAppGroup { group in
            #expect(await HostRunner.inProcess.succeed(["list"], in: group) == "")
            #expect(try CLIHarness.contacts(await HostRunner.inProcess.succeed(["list", "--json"], in: group)).isEmpty)

            await HostRunner.inProcess.succeed(
                ["add", "--id", "l1", "--given-name", "Lin", "--phone", "1", "--email", "l@x.org"], in: group)
            await HostRunner.inProcess.succeed(["add", "--id", "l2", "--organization", "Acme"], in: group)
            await HostRunner.inProcess.succeed(["add", "--id", "l3", "--family-name", "Solo"], in: group)
            #expect(
                await HostRunner.inProcess.succeed(["list"], in: group) == "l1\tLin\t1\tl@x.org\nl2\tAcme\nl3\tSolo")

            let json = await HostRunner.inProcess.succeed(["list", "--json"], in: group)
            let array = try #require(try CLIHarness.json(json) as? [[String: Any]])
            #expect(array.map { $0["identifier"] as? String } == ["l1", "l2", "l3"])
            #expect(try CLIHarness.contacts(json) == (try CLIHarness.database(group).all()))
        }
    }

    @Test("A damaged journal is reported with its path and line, and no command writes to it")
    func damagedJournal() async throws {
        try await withTemporaryAppGroup { group in
            await HostRunner.inProcess.succeed(["add", "--id", "a", "--given-name", "A"], in: group)
            await HostRunner.inProcess.succeed(["add", "--id", "b", "--given-name", "B"], in: group)
            let journalPath = CLIHarness.database(group).store.journalPath
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journalPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"seq\":3,\"upsert\":[{\"identifier\":false}]}\n".utf8))
            try handle.close()
            let damaged = CLIHarness.databaseFiles(group)

            let importFile = group.path + "/one.json"
            try Data(#"[{"identifier":"i","givenName":"I"}]"#.utf8).write(to: URL(fileURLWithPath: importFile))
            for arguments in [
                ["list"], ["export"], ["add", "--id", "c", "--given-name", "C"], ["add", "--given-name", "NoID"],
                ["update", "a", "--given-name", "X"], ["delete", "a"], ["import", importFile],
            ] {
                let result = await HostRunner.inProcess.run(arguments, in: group)
                CLIHarness.expectFailure(result, mentioning: ["\(journalPath):4: malformed"])
            }
            #expect(CLIHarness.databaseFiles(group) == damaged)
        }
    }

    @Test("reset empties the database")
    func reset() async throws {
        try await withTemporaryAppGroup { group in
            for identifier in ["r1", "r2"] {
                await HostRunner.inProcess.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            let generation = try CLIHarness.database(group).store.load().generation
            #expect(await HostRunner.inProcess.succeed(["reset"], in: group) == "")
            #expect(await HostRunner.inProcess.succeed(["list"], in: group) == "")
            #expect(try CLIHarness.contacts(await HostRunner.inProcess.succeed(["list", "--json"], in: group)).isEmpty)
            let state = try CLIHarness.database(group).store.load()
            #expect(state.count == 0)
            #expect(state.generation != generation)
            CLIHarness.expectFailure(await HostRunner.inProcess.run(["get", "r1"], in: group))
            // The identifiers are free again.
            await HostRunner.inProcess.succeed(["add", "--id", "r1", "--given-name", "Again"], in: group)
        }
    }
}
