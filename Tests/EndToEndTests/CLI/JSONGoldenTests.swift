import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

/// Every `--json` shape of `contacts-host`, against a recorded golden file in `Tests/Fixtures/JSON`,
/// so a change to a shape a script reads is a diff someone reviews. `CPS_RECORD_GOLDEN=1 swift test
/// --filter JSONGoldenTests` writes the files anew (as for the help goldens), then `git diff
/// Tests/Fixtures/JSON` shows what changed.
///
/// Each case runs in a fresh temporary App Group: in process where the command allows it, as the built
/// binary where it waits for a provider (`signal`, `step`, `conformance`, `watch`), because those install
/// signal handlers a test process must not take over. Values that differ from run to run are replaced
/// before comparing, as `Tests/Fixtures/JSON/README.md` documents: see `JSONGolden.normalised`.
@Suite("contacts-host --json: one golden file per shape (re-record with CPS_RECORD_GOLDEN=1)")
struct JSONGoldenTests {
    /// A step before the command: in process, as the built binary, or a file written into the App Group.
    enum Step: Sendable {
        case host([String])
        case process([String])
        case file(String, String)
    }

    /// One golden: the command line (placeholders `$APP_GROUP`, `$BUILD`, `$REPO`), what runs first, how.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let command: [String]
        let arguments: [String]
        var setup: [Step] = []
        var inProcess = true
        /// Lines of JSON printed: 1 for a report, more for a stream (`log`).
        var lines = 1
        var testDescription: String { name }
    }

    static let ada = ["add", "--id", "ada", "--given-name", "Ada", "--family-name", "Lovelace"]
    static let rich =
        ada + [
            "--phone", "mobile=+44 20 7946 0000", "--email", "work=ada@example.com", "--organization", "Engines",
            "--birthday", "1815-12-10",
        ]
    static let enable = ["enable", "--extension", "$BUILD/demo-provider", "--page-size", "2"]
    static let synced: [Step] = [.host(rich), .host(["add", "--id", "bob", "--given-name", "Bob"]), .host(enable)]
    static let vcard = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cleo\r\nFN:Cléo Dupont\r\nN:Dupont;Cléo;;;\r\nEND:VCARD\r\n"
    static let logLines =
        "2026-01-02T03:04:05.678Z [com.example.provider:sync] info: sent a page of 2\nFatal error: a print, not Logger\n"
    static let project = "$REPO/Tests/Fixtures/XcodeProjects/ContactProviderDemo/ContactProviderDemo.xcodeproj"

    static let cases: [Case] = [
        Case(name: "add", command: ["add"], arguments: ada + ["--json"]),
        Case(
            name: "update", command: ["update"], arguments: ["update", "ada", "--job-title", "Countess", "--json"],
            setup: [.host(ada)]),
        Case(name: "get", command: ["get"], arguments: ["get", "ada", "--json"], setup: [.host(rich)]),
        Case(name: "list", command: ["list"], arguments: ["list", "--json"], setup: synced),
        Case(name: "search", command: ["search"], arguments: ["search", "--name", "ada", "--json"], setup: synced),
        Case(
            name: "device-list", command: ["device", "list"], arguments: ["device", "list", "--json"],
            setup: [.host(["device", "add", "--id", "grace", "--given-name", "Grace", "--family-name", "Hopper"])]),
        Case(
            name: "import", command: ["import"], arguments: ["import", "$APP_GROUP/cards.vcf", "--json"],
            setup: [.file("cards.vcf", vcard)]),
        Case(name: "export", command: ["export"], arguments: ["export", "--json"], setup: [.host(ada)]),
        Case(name: "generate", command: ["generate"], arguments: ["generate", "2", "--seed", "1", "--json"]),
        Case(name: "enable", command: ["enable"], arguments: enable + ["--json"]),
        Case(
            name: "invalidate", command: ["invalidate"], arguments: ["invalidate", "--json"],
            setup: synced + [.process(["signal", "--wait"])]),
        Case(name: "signal", command: ["signal"], arguments: ["signal", "--json"], setup: synced, inProcess: false),
        Case(
            name: "status", command: ["status"], arguments: ["status", "--json"],
            setup: synced + [.process(["signal", "--wait"]), .process(["invalidate"])]),
        Case(
            name: "system-list", command: ["system", "list"], arguments: ["system", "list", "--json"],
            setup: synced + [.process(["signal", "--wait"])]),
        Case(
            name: "system-search", command: ["system", "search"],
            arguments: ["system", "search", "--phone", "+44 20 7946 0000", "--json"],
            setup: synced + [.process(["signal", "--wait"])]),
        Case(name: "step-list", command: ["step"], arguments: ["step", "--list", "--json"]),
        Case(name: "step", command: ["step"], arguments: ["step", "--json"], setup: synced, inProcess: false),
        Case(
            name: "log", command: ["log"], arguments: ["log", "--json"],
            setup: [.file("run/defaultDomain/provider.log", logLines)], lines: 2),
        Case(name: "doctor", command: ["doctor"], arguments: ["doctor", "--json"], setup: [.host(ada)]),
        Case(
            name: "carddav-configure", command: ["carddav", "configure"],
            arguments: ["carddav", "configure", "--url", "https://dav.example.com/me/contacts", "--json"]),
        Case(
            name: "conformance", command: ["conformance"],
            arguments: ["conformance", "--extension", "$BUILD/demo-provider", "--rules", "C1", "--json"],
            inProcess: false),
        Case(
            name: "conformance-list-rules", command: ["conformance"],
            arguments: ["conformance", "--list-rules", "--json"]),
        Case(
            name: "package", command: ["package"],
            arguments: ["package", "--xcode-project", project, "--output", "$APP_GROUP/package", "--json"]),
    ]

    @Test("Each command's --json prints one line (export: its document) equal to its golden file", arguments: cases)
    func golden(_ golden: Case) async throws {
        try await withTemporaryAppGroup { group in
            defer { _ = try? HostRunner.process.run(["invalidate"], in: group) }
            let expand = { (arguments: [String]) in arguments.map { JSONGolden.expanded($0, group: group) } }
            for step in golden.setup {
                switch step {
                case .host(let arguments): await HostRunner.inProcess.succeed(expand(arguments), in: group)
                case .process(let arguments): try HostRunner.process.succeed(expand(arguments), in: group)
                case .file(let path, let contents):
                    let target = group.path + "/" + path
                    try FileManager.default.createDirectory(
                        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try Data(contents.utf8).write(to: URL(fileURLWithPath: target))
                }
            }
            let arguments = expand(golden.arguments)
            let result =
                golden.inProcess
                ? await HostRunner.inProcess.run(arguments, in: group)
                : try HostRunner.process.run(arguments, in: group)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "contacts-host \(arguments) → \(result)")
            try JSONGolden.check(
                result.stdout, name: golden.name, group: group, lines: golden.lines, document: golden.name == "export")
        }
    }

    @Test("watch --json: one line of JSON per change (JSON Lines), equal to its golden file")
    func watchStream() throws {
        try withTemporaryAppGroup { group in
            defer { _ = try? HostRunner.process.run(["invalidate"], in: group) }
            try HostRunner.process.succeed(["enable", "--extension", BuiltProducts.path("demo-provider")], in: group)
            let watcher = try WatchProcess(group)
            defer { watcher.stop() }
            _ = try #require(watcher.waitUntilReady(), "watch never printed its 'watching …' line")
            try HostRunner.process.succeed(Self.ada, in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let added = try #require(watcher.stdout.nextLine(), "no line for the commit")
            try HostRunner.process.succeed(["system", "reset"], in: group)
            let reset = try #require(watcher.stdout.nextLine(), "no line for the reset")
            try JSONGolden.check(added + "\n" + reset + "\n", name: "watch", group: group, lines: 2)
        }
    }

    @Test("invalidate --json with no provider running: the same shape, false, and the note stays on stderr")
    func invalidateWithNoProvider() async {
        await withTemporaryAppGroup { group in
            let result = await HostRunner.inProcess.run(["invalidate", "--json"], in: group)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout == "{\"invalidated\":false}\n", "\(result)")
            #expect(result.stderr == "no provider is running\n", "\(result)")
        }
    }

    @Test("--version --json (either order) prints the version as one line of JSON, against its golden")
    func versionJSON() async throws {
        try await withTemporaryAppGroup { group in
            for arguments in [["--version", "--json"], ["--json", "--version"]] {
                let result = await HostRunner.inProcess.run(arguments, in: group)
                #expect(result.exitCode == 0, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
                try JSONGolden.check(result.stdout, name: "version", group: group)
            }
            let text = await HostRunner.inProcess.run(["--version"], in: group)
            #expect(text.stdout == "contacts-host \(HostTool.version)\n", "\(text)")
            let extra = await HostRunner.inProcess.run(["--version", "--verbose"], in: group)
            #expect(extra.exitCode == 2 && extra.stdout.isEmpty, "\(extra)")
            #expect(extra.stderr == "error: --version takes only --json, got '--verbose'\n", "\(extra)")
        }
    }

    @Test(
        "A command without JSON output refuses --json: exit 2, nothing run, the commands that have it named",
        arguments: [
            ["delete", "ada", "--json"], ["reset", "--json"], ["system", "reset", "--json=1"], ["disable", "--json"],
        ])
    func refusesJSON(arguments: [String]) async throws {
        try await withTemporaryAppGroup { group in
            #expect(await HostRunner.inProcess.run(Self.ada, in: group).exitCode == 0)
            let result = await HostRunner.inProcess.run(arguments, in: group)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.contains("--json is not available here"), "\(result)")
            let named = HostTool.allCommands.filter { $0.options.contains { $0.name == "--json" } }
            for command in named.map({ $0.name.joined(separator: " ") }) + ["--version"] {
                #expect(result.stderr.contains(command), "the refusal does not name \(command): \(result.stderr)")
            }
            #expect(result.stderr.contains("(see 'contacts-host help "), "\(result)")
            // Nothing ran: the contact is still there.
            let ada = try CLIHarness.database(group).get("ada")
            #expect(ada != nil)
        }
    }

    @Test("Every command that declares --json has a golden here, and every golden file belongs to a case")
    func everyShapeHasAGolden() throws {
        let declaring = Set(
            HostTool.allCommands.filter { $0.options.contains { $0.name == "--json" } }.map {
                $0.name.joined(separator: " ")
            })
        let covered = Set(Self.cases.map { $0.command.joined(separator: " ") } + ["watch"])
        #expect(declaring == covered, "without a golden: \(declaring.subtracting(covered).sorted())")
        let files = try FileManager.default.contentsOfDirectory(atPath: JSONGolden.fixtures).filter {
            $0.hasSuffix(".json")
        }
        #expect(
            Set(files) == Set(Self.cases.map { $0.name + ".json" } + ["watch.json", "version.json"]),
            "\(files.sorted())")
    }

    @Test("The normalisation replaces exactly the documented volatile values")
    func normalisation() {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let raw =
            #"{"appGroup":"\#(group.path)","durationMs":12.5,"generationMarker":"Y3BzMQ==","id":"0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0","#
            + #""providerPID":4242,"seed":7,"time":"2026-01-02T03:04:05Z","tool":"\#(BuiltProducts.directory)/demo-provider"}"#
        #expect(
            JSONGolden.normalised(raw, group: group)
                == #"{"appGroup":"$APP_GROUP","durationMs":0,"generationMarker":"$MARKER","id":"$UUID","providerPID":0,"#
                + #""seed":7,"time":"$TIME","tool":"$BUILD/demo-provider"}"#)
    }
}

/// Golden files of `--json` output: where they are, how volatile values are replaced, how they are compared.
enum JSONGolden {
    static var fixtures: String { PythonTestTools.repositoryRoot + "/Tests/Fixtures/JSON" }

    private static var recording: Bool { ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" }

    /// `$APP_GROUP`, `$BUILD` and `$REPO` in a command line, made real.
    static func expanded(_ argument: String, group: TemporaryAppGroup) -> String {
        argument.replacingOccurrences(of: "$APP_GROUP", with: group.path)
            .replacingOccurrences(of: "$BUILD", with: BuiltProducts.directory)
            .replacingOccurrences(of: "$REPO", with: PythonTestTools.repositoryRoot)
    }

    /// Keys whose values change from run to run, and what stands in for them.
    static let volatileNumbers = ["durationMs", "durationSeconds", "providerPID"]
    static let volatileStrings = ["generationMarker": "$MARKER", "time": "$TIME", "providerBuild": "$PROVIDER_BUILD"]

    /// `text` with the run's paths, UUIDs, times, durations, pids and generation markers replaced.
    static func normalised(_ text: String, group: TemporaryAppGroup) -> String {
        var text = text.replacingOccurrences(of: group.path, with: "$APP_GROUP")
            .replacingOccurrences(of: BuiltProducts.directory, with: "$BUILD")
            .replacingOccurrences(of: PythonTestTools.repositoryRoot, with: "$REPO")
        text = replacing(
            "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "$UUID", in: text)
        for key in volatileNumbers {
            text = replacing("\"\(key)\":-?[0-9][0-9.eE+-]*", with: "\"\(key)\":0", in: text)
        }
        for (key, placeholder) in volatileStrings {
            text = replacing("\"\(key)\":\"[^\"]*\"", with: "\"\(key)\":\"\(placeholder)\"", in: text)
        }
        return text
    }

    /// `text` with every match of `pattern` replaced by `replacement`, taken literally (a `$` in it is
    /// not a group reference).
    private static func replacing(_ pattern: String, with replacement: String, in text: String) -> String {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text),
            withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
    }

    /// Checks that `stdout` is `lines` lines of JSON (or, for a `document`, one indented JSON value),
    /// then compares it, normalised, with `name.json`, or records it when `CPS_RECORD_GOLDEN=1`.
    static func check(
        _ stdout: String, name: String, group: TemporaryAppGroup, lines: Int = 1, document: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let printed = stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if document {
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) != nil, "\(name): not JSON: \(stdout)",
                sourceLocation: sourceLocation)
        } else {
            #expect(
                stdout.hasSuffix("\n") && printed.count == lines, "\(name): not \(lines) line(s): \(stdout)",
                sourceLocation: sourceLocation)
            for line in printed {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(name): not JSON: \(line)",
                    sourceLocation: sourceLocation)
            }
        }
        let normal = normalised(stdout, group: group)
        let path = fixtures + "/" + name + ".json"
        if recording {
            try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: true)
            try Data(normal.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let recorded = try #require(
            try? String(contentsOfFile: path, encoding: .utf8),
            "no golden file \(path): record it with CPS_RECORD_GOLDEN=1",
            sourceLocation: sourceLocation)
        #expect(
            normal == recorded,
            "\(name) --json differs from \(path); re-record with CPS_RECORD_GOLDEN=1 if the change is meant, and review the diff",
            sourceLocation: sourceLocation)
    }
}
