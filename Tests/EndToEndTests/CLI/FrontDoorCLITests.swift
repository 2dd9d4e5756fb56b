import AppGroupStore
import CommandLineToolkit
import Foundation
import TestSupport
import Testing

@Suite("contacts-host for a newcomer: where the data is, a demo that keeps it safe, documented JSON")
struct FrontDoorCLITests {
    /// An environment with no App Group variable and HOME inside `group`, so the default App Group
    /// is `<group>/home/.local/share/contact-provider-simulator/AppGroup`.
    private func homeEnvironment(_ group: TemporaryAppGroup) -> [String: String] {
        var environment = CLIHarness.environmentWithoutAppGroup
        environment["HOME"] = group.path + "/home"
        environment["XDG_DATA_HOME"] = nil
        return environment
    }

    private func host(_ arguments: [String], _ environment: [String: String]) throws -> ProcessResult {
        try HostRunner.process.run(arguments, environment: environment, currentDirectory: "/")
    }

    @Test("status names the App Group and where the choice came from: flag, environment or default")
    func statusShowsAppGroup() throws {
        try withTemporaryAppGroup { group in
            let flagged = group.path + "/flagged"
            let environment = homeEnvironment(group)
            let defaultPath = group.path + "/home/.local/share/contact-provider-simulator/AppGroup"
            let cases: [([String], [String: String], String, String)] = [
                (["--app-group", flagged], environment, flagged, "flag"),
                ([], group.environment, group.path, "environment"),
                ([], environment, defaultPath, "default"),
            ]
            for (prefix, environment, path, source) in cases {
                let text = try host(prefix + ["status"], environment)
                #expect(text.exitCode == 0, "\(text)")
                let firstLine = text.stdout.split(separator: "\n").first.map(String.init) ?? ""
                #expect(firstLine.hasPrefix("App Group: \(path) ("), "\(text)")
                #expect(
                    firstLine.contains(
                        source == "flag"
                            ? "--app-group" : source == "environment" ? "$CONTACT_PROVIDER_APP_GROUP" : "the default"))
                let json = try host(prefix + ["status", "--json"], environment)
                let object = try #require(try CLIHarness.json(json.stdout) as? [String: Any])
                #expect(object["appGroup"] as? String == path)
                #expect(object["appGroupSource"] as? String == source)
            }
        }
    }

    @Test("demo runs in its own App Group (its first line) and leaves the default App Group untouched")
    func demoLeavesDefaultUntouched() throws {
        try withTemporaryAppGroup { group in
            let demoPath = group.path + "/home/.local/share/contact-provider-simulator/DemoAppGroup"
            defer { TemporaryAppGroup.stopProviders(inAppGroup: demoPath) }
            var environment = homeEnvironment(group)
            environment["PATH"] = "/usr/bin:/bin"  // as right after `swift run contacts-host demo`
            let defaultGroup = AppGroup(path: group.path + "/home/.local/share/contact-provider-simulator/AppGroup")
            #expect(try host(["add", "--id", "mine", "--given-name", "Mine"], environment).exitCode == 0)
            let before = try FileManager.default.subpathsOfDirectory(atPath: defaultGroup.path).sorted()
            let database = AppDatabase(appGroup: defaultGroup).store
            let bytes = [database.snapshotPath, database.journalPath].map { FileManager.default.contents(atPath: $0) }

            let demo = try host(["demo"], environment)
            #expect(demo.exitCode == 0, "\(demo)")
            #expect(
                demo.stdout.hasPrefix(
                    "App Group: \(demoPath) (the demo's own; your App Group \(defaultGroup.path) is not touched)"),
                "\(demo)")
            #expect(demo.stdout.contains("equals the app database"))
            #expect(try FileManager.default.subpathsOfDirectory(atPath: defaultGroup.path).sorted() == before)
            #expect(
                [database.snapshotPath, database.journalPath].map { FileManager.default.contents(atPath: $0) } == bytes)
            #expect(try AppDatabase(appGroup: defaultGroup).all().map(\.identifier) == ["mine"])
            #expect(try AppDatabase(appGroup: AppGroup(path: demoPath)).all().count == 5)
            // Its last line can be pasted as it is: contacts-host is not on this PATH, so it names the
            // executable by its path (the working directory is /); on the PATH, by its name.
            let tool = BuiltProducts.path("contacts-host")
            let lastLine = demo.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(lastLine.hasPrefix("Try it yourself: \(tool) --app-group \(demoPath) add "), "\(lastLine)")
            #expect(lastLine.contains("&& \(tool) --app-group \(demoPath) signal --wait --trace"), "\(lastLine)")
            var onPath = environment
            onPath["PATH"] = (tool as NSString).deletingLastPathComponent + ":/usr/bin:/bin"
            let again = try host(["demo"], onPath)
            #expect(again.exitCode == 0, "\(again)")
            let named = again.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(named.hasPrefix("Try it yourself: contacts-host --app-group \(demoPath) add "), "\(named)")
        }
    }

    @Test("demo in an App Group chosen by --app-group prints a command that runs in it, as pasted into a new shell")
    func demoCommandNamesTheChosenGroup() throws {
        try withTemporaryAppGroup { group in
            // No App Group variable and a home of its own: a pasted command without the group would
            // add the contact to the default App Group under that home, not to this one.
            let environment = homeEnvironment(group)
            let demo = try host(["--app-group", group.path, "demo"], environment)
            #expect(demo.exitCode == 0, "\(demo)")
            let lastLine = demo.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let prefix = "Try it yourself: "
            #expect(lastLine.hasPrefix(prefix), "\(lastLine)")
            #expect(lastLine.contains("--app-group \(ShellWord.quote(group.path)) add "), "\(lastLine)")
            let pasted = try ProcessRunner.run(
                "/bin/sh", ["-c", String(lastLine.dropFirst(prefix.count))], environment: environment,
                currentDirectory: "/")
            #expect(pasted.exitCode == 0, "\(pasted)")
            #expect(try CLIHarness.database(group).all().contains { $0.givenName == "Ada" })
            _ = try HostRunner.process.run(["invalidate"], in: group)
        }
    }

    @Test("demo refuses a chosen App Group that holds the user's contacts unless --force, and changes nothing")
    func demoRefusesUserData() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "mine", "--given-name", "Mine"], in: group)
            let before = CLIHarness.databaseFiles(group)
            let result = try HostRunner.process.run(["demo"], in: group)
            CLIHarness.expectFailure(result, mentioning: ["--force"])
            #expect(result.stderr.contains("'Mine'"))
            #expect(CLIHarness.databaseFiles(group) == before)
            #expect(!FileManager.default.fileExists(atPath: group.path + "/domains"))
        }
    }

    @Test("step --list --json and signal --wait --json print JSON (the latter on one line, as the README shows)")
    func jsonOutputs() throws {
        try withTemporaryAppGroup { group in
            let pending = try HostRunner.process.succeed(["step", "--list", "--json"], in: group)
            let object = try #require(try CLIHarness.json(pending) as? [String: Any])
            #expect(object["pending"] as? String == "content page (initial, 0)")
            #expect(object["phase"] as? String == "content")

            try HostRunner.process.succeed(["add", "--id", "a", "--given-name", "A"], in: group)
            try HostRunner.process.succeed(["enable", "--extension", BuiltProducts.path("demo-provider")], in: group)
            let report = try HostRunner.process.succeed(["signal", "--wait", "--json"], in: group)
            #expect(!report.contains("\n"), "\(report)")
            let parsed = try #require(try CLIHarness.json(report) as? [String: Any])
            #expect(parsed["enumeration"] as? String == "content")
            #expect(parsed["systemCount"] as? Int == 1)
            _ = try HostRunner.process.run(["invalidate"], in: group)
        }
    }
}

@Suite("contacts-host generate: sample contacts, the same for the same seed")
struct GenerateCLITests {
    @Test("generate N --seed S adds N contacts with every field shape; the same seed gives the same contacts")
    func deterministic() throws {
        try withTemporaryAppGroups { first, second in
            let output = try HostRunner.process.succeed(["generate", "300", "--seed", "7"], in: first)
            #expect(output == "generated 300 contacts with seed 7 (300 added, 0 updated)")
            try HostRunner.process.succeed(["generate", "300", "--seed", "7"], in: second)
            let a = try CLIHarness.database(first).all()
            let b = try CLIHarness.database(second).all()
            #expect(a.count == 300)
            #expect(a == b)
            // Every field shape appears somewhere.
            #expect(a.contains { !$0.phoneNumbers.isEmpty } && a.contains { $0.phoneNumbers.count > 1 })
            #expect(a.contains { !$0.emailAddresses.isEmpty } && a.contains { !$0.postalAddresses.isEmpty })
            #expect(a.contains { !$0.urlAddresses.isEmpty } && a.contains { !$0.note.isEmpty })
            #expect(a.contains { $0.birthday?.hasPrefix("--") == true } && a.contains { $0.birthday?.count == 10 })
            #expect(a.contains { !$0.dates.isEmpty } && a.contains { !$0.contactRelations.isEmpty })
            #expect(a.contains { !$0.socialProfiles.isEmpty } && a.contains { !$0.instantMessageAddresses.isEmpty })
            #expect(a.contains { $0.contactType == "organization" } && a.contains { !$0.middleName.isEmpty })
            // The same seed again replaces; another seed adds different contacts.
            #expect(
                try HostRunner.process.succeed(["generate", "300", "--seed", "7"], in: first).contains(
                    "(0 added, 300 updated)")
            )
            try HostRunner.process.succeed(["generate", "300", "--seed", "8"], in: second)
            let c = try CLIHarness.database(second).all()
            #expect(c.count == 600)
            let eight = c.filter { $0.identifier.hasPrefix("sample-8-") }
            #expect(eight.count == 300)
            #expect(eight.map(\.phoneNumbers) != a.map(\.phoneNumbers))
        }
    }
}

@Suite("signal --wait on a long sync: progress on stderr, a timeout that counts silence")
struct SignalProgressCLITests {
    @Test(
        "A sync longer than --timeout that keeps committing pages succeeds, with progress lines on stderr after a second"
    )
    func progressAndSilenceTimeout() throws {
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = "slow-page"  // every page waits 0.4 s: 6 pages take 2.4 s
            environment["BAD_PROVIDER_DELAY_SECONDS"] = "0.4"
            environment["CONTACTS_HOST_PROGRESS"] = "1"  // stderr is a pipe here, not a terminal
            let host = { (arguments: [String]) in
                try HostRunner.process.run(arguments, environment: environment)
            }
            #expect(try host(["generate", "12", "--seed", "3"]).exitCode == 0)
            let enabled = try host(["enable", "--extension", BuiltProducts.path("bad-provider"), "--page-size", "2"])
            #expect(enabled.exitCode == 0, "\(enabled)")
            let result = try host(["signal", "--wait", "--timeout", "1"])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("system store: 12 contacts"), "\(result)")
            let progress = result.stderr.split(separator: "\n").filter { $0.hasPrefix("syncing… ") }
            #expect(!progress.isEmpty, "\(result)")
            // A content enumeration of the app database's 12 contacts: "N of 12", N even (pages of 2).
            #expect(
                progress.allSatisfy {
                    $0.hasPrefix("syncing… content enumeration: ")
                        && $0.contains(" of 12 contacts in the system store, ") && $0.contains(" pages so far (")
                }, "\(result)")
            #expect(
                result.stderr.split(separator: "\n").count == progress.count, "only progress lines on stderr: \(result)"
            )
            _ = try host(["invalidate"])
        }
    }
}

@Suite("import shows progress after one second")
struct ImportProgressCLITests {
    @Test("Without a terminal or CONTACTS_HOST_PROGRESS=1, a slow import prints no progress")
    func quietWithoutTerminal() throws {
        try withTemporaryAppGroup { group in
            // Input that arrives late (after the second the ticker waits) on a pipe: nothing on stderr.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
            process.arguments = ["import", "-"]
            process.environment = group.environment
            let input = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try ProcessRunner.runUnblocked(process)
            // A forced twin of the same import shows when a second has passed: its first progress line.
            var forcedEnvironment = group.environment
            forcedEnvironment["CONTACTS_HOST_PROGRESS"] = "1"
            let twin = Process()
            twin.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
            twin.arguments = ["--app-group", group.path + "/twin", "import", "-"]
            twin.environment = forcedEnvironment
            let twinInput = Pipe()
            let twinErrors = Pipe()
            twin.standardInput = twinInput
            twin.standardOutput = FileHandle.nullDevice
            twin.standardError = twinErrors
            try ProcessRunner.runUnblocked(twin)
            _ = twinErrors.fileHandleForReading.availableData  // blocks until the twin's first progress line
            for handle in [input.fileHandleForWriting, twinInput.fileHandleForWriting] {
                handle.write(Data("[]".utf8))
                try handle.close()
            }
            let quiet = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            twin.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(quiet.isEmpty, "\(quiet)")
        }
    }

    @Test("An import still reading its input after a second says so on stderr; the result follows on stdout")
    func readingProgress() throws {
        try withTemporaryAppGroup { group in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
            process.arguments = ["import", "-"]
            var environment = group.environment
            environment["CONTACTS_HOST_PROGRESS"] = "1"  // stderr is a pipe here, not a terminal
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try ProcessRunner.runUnblocked(process)
            defer { if process.isRunning { process.terminate() } }
            // The input stays open until the progress line arrives: the signal, not a sleep.
            var stderr = ""
            while !stderr.contains("\n") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                stderr += String(decoding: chunk, as: UTF8.self)
            }
            #expect(stderr.hasPrefix("import: reading <stdin>… (1 s)\n"), "\(stderr)")
            let json = #"[{"identifier": "p1", "givenName": "Progress"}]"#
            input.fileHandleForWriting.write(Data(json.utf8))
            try input.fileHandleForWriting.close()
            let result = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(result == "imported 1 contact (1 added, 0 updated, 0 skipped)\n")
            #expect(try CLIHarness.database(group).get("p1")?.givenName == "Progress")
        }
    }
}

@Suite("The front door's rough edges: counts in the right number, invalidate answers, usage errors say where to look")
struct FrontDoorRoughEdgesCLITests {
    @Test(
        "One contact, one page: import, signal --wait, status and generate say '1 contact' and '1 page', never '1 pages'"
    )
    func pluralsAreRight() throws {
        try withTemporaryAppGroup { group in
            let host = { (arguments: [String]) in try HostRunner.process.run(arguments, environment: group.environment)
            }
            let generated = try host(["generate", "1", "--seed", "2"])
            #expect(generated.stdout == "generated 1 contact with seed 2 (1 added, 0 updated)\n", "\(generated)")
            #expect(try host(["enable", "--extension", BuiltProducts.path("demo-provider")]).exitCode == 0)
            let synced = try host(["signal", "--wait"])
            #expect(synced.exitCode == 0, "\(synced)")
            #expect(synced.stdout.contains("content enumeration: 1 page, 0 batches, 1 updated, 0 deleted"), "\(synced)")
            #expect(synced.stdout.contains("system store: 1 contact\n"), "\(synced)")
            let status = try host(["status"])
            #expect(status.stdout.contains("app database: 1 contact\n"), "\(status)")
            #expect(status.stdout.contains("system store: 1 contact\n"), "\(status)")
            for output in [generated.stdout, synced.stdout, status.stdout] {
                #expect(!output.contains("1 contacts") && !output.contains("1 pages"), "\(output)")
            }
            // Invalidate says what happened, on stdout; with nothing running it says so on stderr.
            let invalidated = try host(["invalidate"])
            #expect(invalidated.exitCode == 0, "\(invalidated)")
            #expect(invalidated.stdout == "invalidated: the provider ran invalidate() and exited\n", "\(invalidated)")
            let again = try host(["invalidate"])
            #expect(again.exitCode == 0 && again.stdout.isEmpty, "\(again)")
            #expect(again.stderr == "no provider is running\n", "\(again)")
        }
    }

    @Test("add, generate, enable and doctor take --json: one object on one line, in the documented shape")
    func jsonOnEveryReportingCommand() throws {
        try withTemporaryAppGroup { group in
            let host = { (arguments: [String]) in try HostRunner.process.run(arguments, environment: group.environment)
            }
            /// The one line `arguments` printed, parsed, with its keys.
            func object(_ arguments: [String], exitCode: Int32 = 0) throws -> [String: Any] {
                let result = try host(arguments)
                #expect(result.exitCode == exitCode, "\(result)")
                #expect(result.stdout.hasSuffix("}\n") && result.stdout.split(separator: "\n").count == 1, "\(result)")
                return try #require(try CLIHarness.json(result.stdout) as? [String: Any], "\(result)")
            }
            let added = try object(["add", "--id", "ada", "--given-name", "Ada", "--json"])
            #expect(Set(added.keys) == ["identifier"] && added["identifier"] as? String == "ada")
            let generated = try object(["generate", "3", "--seed", "9", "--json"])
            #expect(Set(generated.keys) == ["added", "generated", "seed", "updated"], "\(generated)")
            #expect(generated["generated"] as? Int == 3 && generated["seed"] as? Int == 9)
            #expect(generated["added"] as? Int == 3 && generated["updated"] as? Int == 0)
            let provider = BuiltProducts.path("demo-provider")
            let enabled = try object(["enable", "--extension", provider, "--page-size", "7", "--json"])
            #expect(
                Set(enabled.keys) == [
                    "batchSize", "domain", "extensionPath", "pageSize", "replacedExtensionPath", "store",
                ],
                "\(enabled)")
            #expect(enabled["domain"] as? String == "defaultDomain" && enabled["pageSize"] as? Int == 7)
            #expect(enabled["extensionPath"] as? String == provider && enabled["replacedExtensionPath"] is NSNull)
            #expect(enabled["store"] as? String == "app-database", "\(enabled)")
            let healthy = try object(["doctor", "--json"])
            #expect(Set(healthy.keys) == ["appGroup", "problems"], "\(healthy)")
            #expect(healthy["appGroup"] as? String == group.path && (healthy["problems"] as? [Any])?.isEmpty == true)
            // A damaged line: found (exit 1), then repaired (exit 0) with what was done.
            let journal = AppDatabase(appGroup: group.appGroup).store.journalPath
            let handle = try #require(FileHandle(forWritingAtPath: journal))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"seq\": oops}\n".utf8))
            try handle.close()
            let damaged = try object(["doctor", "--json"], exitCode: 1)
            let problems = try #require(damaged["problems"] as? [[String: Any]], "\(damaged)")
            #expect(
                !problems.isEmpty && problems.allSatisfy { Set($0.keys) == ["path", "line", "message"] }, "\(problems)")
            #expect(problems.contains { $0["path"] as? String == journal && $0["line"] is Int }, "\(problems)")
            let repaired = try object(["doctor", "--repair", "--json"])
            #expect(Set(repaired.keys) == ["appGroup", "problems", "repaired", "remaining"], "\(repaired)")
            #expect(
                (repaired["remaining"] as? [Any])?.isEmpty == true && (repaired["repaired"] as? [Any])?.isEmpty == false
            )
        }
    }

    @Test(
        "A usage error is one line that ends with the command's help to read",
        arguments: [
            (["add"], "add"), (["add", "--given-name", "A", "--birthday", "2023-02-30"], "add"),
            (["signal", "--timeout", "soon"], "signal"), (["system", "list", "--jsn"], "system list"),
            (["generate"], "generate"),
        ])
    func usageErrorHint(arguments: [String], command: String) throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(arguments, environment: group.environment)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: \(command): "), "\(result)")
            #expect(result.stderr.hasSuffix(" (see 'contacts-host help \(command)')\n"), "\(result)")
        }
    }
}
