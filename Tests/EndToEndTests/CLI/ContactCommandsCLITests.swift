import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host contact commands, run as the built binary")
struct ContactCommandsCLITests {
    @Test("The test runs the contacts-host binary built next to it")
    func binaryIsBuilt() throws {
        let path = BuiltProducts.path("contacts-host")
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
        try withTemporaryAppGroup { group throws in
            #expect(try CLIHarness.succeed(["--version"], in: group) == "contacts-host 0.1.0")
        }
    }

    @Test("add prints only the new identifier and exits 0")
    func addPrintsIdentifier() throws {
        try withTemporaryAppGroup { group in
            let result = try ProcessRunner.host(["add", "--given-name", "Ada", "--family-name", "Lovelace"], in: group)
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
    func addWithIdentifier() throws {
        try withTemporaryAppGroup { group in
            let output = try CLIHarness.succeed(
                [
                    "add", "--id", "ada", "--given-name", "Ada", "--family-name", "Lovelace", "--middle-name", "Augusta",
                    "--nickname", "Countess", "--organization", "Engines Ltd", "--department", "R&D", "--job-title", "Analyst",
                    "--phone", "work=+44 1", "--phone", "+44 2", "--email", "ada@example.org", "--url", "https://example.org",
                    "--note", "Notes", "--birthday", "1815-12-10",
                ], in: group)
            #expect(output == "ada")
            let stored = try #require(try CLIHarness.database(group).get("ada"))
            #expect(stored.middleName == "Augusta")
            #expect(stored.nickname == "Countess")
            #expect(stored.organizationName == "Engines Ltd")
            #expect(stored.departmentName == "R&D")
            #expect(stored.jobTitle == "Analyst")
            #expect(stored.phoneNumbers == [.init(label: "_$!<Work>!$_", value: "+44 1"), .init(label: "_$!<Mobile>!$_", value: "+44 2")])
            #expect(stored.emailAddresses == [.init(label: "_$!<Home>!$_", value: "ada@example.org")])
            #expect(stored.urlAddresses.map(\.value) == ["https://example.org"])
            #expect(stored.note == "Notes")
            #expect(stored.birthday == "1815-12-10")
        }
    }

    @Test("A birthday without a year is accepted as --birthday --MM-DD")
    func yearlessBirthday() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "b", "--given-name", "B", "--birthday", "--05-17"], in: group)
            #expect(try CLIHarness.database(group).get("b")?.birthday == "--05-17")
            #expect(try CLIHarness.succeed(["get", "b"], in: group).contains("birthday: --05-17"))
        }
    }

    @Test("A duplicate --id fails with one line on stderr naming it, and writes nothing")
    func duplicateIdentifier() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "dup-1", "--given-name", "First"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let result = try ProcessRunner.host(["add", "--id", "dup-1", "--given-name", "Second"], in: group)
            CLIHarness.expectFailure(result, mentioning: ["'dup-1'"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).get("dup-1")?.givenName == "First")
        }
    }

    @Test("An identifier with a slash can be added, read, duplicated-checked, updated and deleted")
    func slashIdentifier() throws {
        try withTemporaryAppGroup { group in
            #expect(try CLIHarness.succeed(["add", "--id", "team/a", "--given-name", "Slash"], in: group) == "team/a")
            #expect(try CLIHarness.succeed(["get", "team/a"], in: group).contains("name: Slash"))
            CLIHarness.expectFailure(try ProcessRunner.host(["add", "--id", "team/a", "--given-name", "Again"], in: group))
            try CLIHarness.succeed(["update", "team/a", "--family-name", "Updated"], in: group)
            try CLIHarness.succeed(["delete", "team/a"], in: group)
            #expect(try CLIHarness.database(group).all().isEmpty)
        }
    }

    @Test("update changes only the given fields; a repeated --phone replaces the whole list")
    func updateListReplacement() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(
                ["add", "--id", "u", "--given-name", "Old", "--family-name", "Keep", "--phone", "1", "--phone", "2",
                 "--email", "u@example.org"], in: group)
            #expect(try CLIHarness.succeed(["update", "u", "--phone", "home=3", "--phone", "4", "--phone", "5"], in: group) == "u")
            var stored = try #require(try CLIHarness.database(group).get("u"))
            #expect(stored.phoneNumbers == [
                .init(label: "_$!<Home>!$_", value: "3"), .init(label: "_$!<Mobile>!$_", value: "4"),
                .init(label: "_$!<Mobile>!$_", value: "5"),
            ])
            #expect(stored.emailAddresses.map(\.value) == ["u@example.org"])

            try CLIHarness.succeed(["update", "u", "--given-name", "New"], in: group)
            stored = try #require(try CLIHarness.database(group).get("u"))
            #expect(stored.givenName == "New")
            #expect(stored.familyName == "Keep")
            #expect(stored.phoneNumbers.map(\.value) == ["3", "4", "5"])

            try CLIHarness.succeed(["update", "u", "--phone", "9"], in: group)
            #expect(try CLIHarness.database(group).get("u")?.phoneNumbers.map(\.value) == ["9"])
        }
    }

    @Test("update of an unknown identifier fails and writes nothing")
    func updateUnknown() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "known", "--given-name", "K"], in: group)
            let before = CLIHarness.databaseFiles(group)
            CLIHarness.expectFailure(try ProcessRunner.host(["update", "ghost", "--given-name", "Boo"], in: group), mentioning: ["'ghost'"])
            #expect(CLIHarness.databaseFiles(group) == before)
        }
    }

    @Test("delete removes several contacts at once")
    func deleteSeveral() throws {
        try withTemporaryAppGroup { group in
            for identifier in ["d1", "d2", "d3"] {
                try CLIHarness.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            #expect(try CLIHarness.succeed(["delete", "d1", "d3"], in: group) == "")
            #expect(try CLIHarness.database(group).all().map(\.identifier) == ["d2"])
            CLIHarness.expectFailure(try ProcessRunner.host(["get", "d1"], in: group), mentioning: ["'d1'"])
        }
    }

    @Test("delete with an unknown identifier fails and deletes nothing")
    func deleteUnknown() throws {
        try withTemporaryAppGroup { group in
            for identifier in ["k1", "k2"] {
                try CLIHarness.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            let before = CLIHarness.databaseFiles(group)
            CLIHarness.expectFailure(try ProcessRunner.host(["delete", "k1", "missing", "k2"], in: group), mentioning: ["'missing'"])
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(try CLIHarness.database(group).all().map(\.identifier) == ["k1", "k2"])
        }
    }

    @Test("get prints a readable description")
    func getText() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(
                ["add", "--id", "g", "--given-name", "Grace", "--family-name", "Hopper", "--organization", "Navy",
                 "--phone", "work=555", "--email", "g@example.org", "--birthday", "1906-12-09", "--note", "Bug"], in: group)
            let text = try CLIHarness.succeed(["get", "g"], in: group)
            #expect(text.split(separator: "\n").map(String.init) == [
                "identifier: g", "name: Grace Hopper", "organization: Navy", "phone (work): 555",
                "email (home): g@example.org", "birthday: 1906-12-09", "note: Bug",
            ])
        }
    }

    @Test("get --json prints one contact with Contacts key names")
    func getJSON() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(
                ["add", "--id", "j", "--given-name", "Jo", "--family-name", "Doe", "--phone", "mobile=+1 555", "--email",
                 "work=jo@example.org", "--birthday", "--02-29"], in: group)
            let text = try CLIHarness.succeed(["get", "j", "--json"], in: group)
            let object = try #require(try CLIHarness.json(text) as? [String: Any])
            #expect(Set(object.keys) == ["identifier", "givenName", "familyName", "phoneNumbers", "emailAddresses", "birthday"])
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
    func getUnknown() throws {
        try withTemporaryAppGroup { group in
            CLIHarness.expectFailure(try ProcessRunner.host(["get", "nobody"], in: group), mentioning: ["'nobody'"])
            CLIHarness.expectFailure(try ProcessRunner.host(["get", "nobody", "--json"], in: group), mentioning: ["'nobody'"])
        }
    }

    @Test("list prints one tab-separated line per contact; list --json prints a JSON array")
    func list() throws {
        try withTemporaryAppGroup { group in
            #expect(try CLIHarness.succeed(["list"], in: group) == "")
            #expect(try CLIHarness.contacts(try CLIHarness.succeed(["list", "--json"], in: group)).isEmpty)

            try CLIHarness.succeed(["add", "--id", "l1", "--given-name", "Lin", "--phone", "1", "--email", "l@x.org"], in: group)
            try CLIHarness.succeed(["add", "--id", "l2", "--organization", "Acme"], in: group)
            try CLIHarness.succeed(["add", "--id", "l3", "--family-name", "Solo"], in: group)
            #expect(try CLIHarness.succeed(["list"], in: group) == "l1\tLin\t1\tl@x.org\nl2\tAcme\nl3\tSolo")

            let json = try CLIHarness.succeed(["list", "--json"], in: group)
            let array = try #require(try CLIHarness.json(json) as? [[String: Any]])
            #expect(array.map { $0["identifier"] as? String } == ["l1", "l2", "l3"])
            #expect(try CLIHarness.contacts(json) == (try CLIHarness.database(group).all()))
        }
    }

    @Test("A reader that stops early (list | head -n 1) ends contacts-host quietly, as SIGPIPE would")
    func closedPipe() throws {
        try withTemporaryAppGroup { group in
            let database = CLIHarness.database(group)
            // Far more output than a pipe buffers, so the writer is still writing when head exits.
            try database.store.append(upsert: (0..<10_000).map { index in
                var record = ContactRecord(identifier: String(format: "p%05d", index))
                record.givenName = "Given \(index)"
                record.phoneNumbers = [.init(label: nil, value: "+1 555 0100")]
                return record
            })
            let stderrPath = group.path + "/list.err"
            let statusPath = group.path + "/list.status"
            let result = try ProcessRunner.run(
                "/bin/sh", ["-c", #"{ "$1" list 2>"$2"; echo $? >"$3"; } | head -n 1"#, "sh",
                            BuiltProducts.path("contacts-host"), stderrPath, statusPath],
                environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.output == "p00000\tGiven 0\t+1 555 0100")
            let status = try String(contentsOfFile: statusPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(status == "141")  // 128 + SIGPIPE, not a crash (132, SIGILL from a failed try!)
            #expect(try String(contentsOfFile: stderrPath, encoding: .utf8) == "")
        }
    }

    @Test("A damaged journal is reported with its path and line, and no command writes to it")
    func damagedJournal() throws {
        try withTemporaryAppGroup { group in
            try CLIHarness.succeed(["add", "--id", "a", "--given-name", "A"], in: group)
            try CLIHarness.succeed(["add", "--id", "b", "--given-name", "B"], in: group)
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
                let result = try ProcessRunner.host(arguments, in: group)
                CLIHarness.expectFailure(result, mentioning: ["\(journalPath):4: malformed"])
            }
            #expect(CLIHarness.databaseFiles(group) == damaged)
        }
    }

    @Test("reset empties the database")
    func reset() throws {
        try withTemporaryAppGroup { group in
            for identifier in ["r1", "r2"] {
                try CLIHarness.succeed(["add", "--id", identifier, "--given-name", identifier], in: group)
            }
            let generation = try CLIHarness.database(group).store.load().generation
            #expect(try CLIHarness.succeed(["reset"], in: group) == "")
            #expect(try CLIHarness.succeed(["list"], in: group) == "")
            #expect(try CLIHarness.contacts(try CLIHarness.succeed(["list", "--json"], in: group)).isEmpty)
            let state = try CLIHarness.database(group).store.load()
            #expect(state.count == 0)
            #expect(state.generation != generation)
            CLIHarness.expectFailure(try ProcessRunner.host(["get", "r1"], in: group))
            // The identifiers are free again.
            try CLIHarness.succeed(["add", "--id", "r1", "--given-name", "Again"], in: group)
        }
    }
}
