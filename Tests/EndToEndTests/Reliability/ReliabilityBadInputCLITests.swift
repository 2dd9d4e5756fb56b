import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Bad command lines for every command `contacts-host --help` lists: exit 2, one line on stderr
/// naming the problem, nothing on stdout, and not one byte of the App Group changed.
@Suite("Reliability: bad command-line input for every command")
struct ReliabilityBadInputCLITests {
    /// (arguments, text the one stderr line must contain) for each command.
    static let cases: [String: [([String], String)]] = {
        let search: (String...) -> [([String], String)] = { prefix in
            [
                (prefix + ["--bogus"], "--bogus"),
                (prefix + ["--name"], "--name"),
                (prefix + ["--name", "a", "--name", "b"], "--name"),
                (prefix + ["--name", "a", "--email", "b@example.com"], "--name"),
                (prefix + ["--phone", "abc"], "--phone"),
                (prefix, "--name"),
                (prefix + ["--name", "a", "extra"], "'extra'"),
            ]
        }
        let noOptions: (String...) -> [([String], String)] = { prefix in
            [(prefix + ["--bogus"], "--bogus"), (prefix + ["extra"], "'extra'"), (prefix + ["--json"], "--json")]
        }
        return [
            "add": [
                (["add", "--given-name", "X", "--bogus"], "--bogus"),
                (["add", "--given-name", "A", "--given-name", "B"], "--given-name"),
                (["add", "--given-name"], "--given-name"),
                (["add", "--given-name", "X", "--birthday", "2020-13-40"], "--birthday"),
                (["add", "extra", "--given-name", "X"], "'extra'"),
                (["add", "--given-name", "X", "--id", "a\u{1}b"], "--id"),
                (["add", "--given-name", "X", "--id", "line\nbreak"], "--id"),
                (["add", "--given-name", "X", "--id", "del\u{7F}"], "--id"),
                (["add", "--family-name"], "--family-name"),
            ],
            "update": [
                (["update", "a", "--bogus"], "--bogus"),
                (["update", "a", "--note", "x", "--note", "y"], "--note"),
                (["update", "a", "--given-name"], "--given-name"),
                (["update", "a", "--birthday", "2020-13-40"], "--birthday"),
                (["update", "--given-name", "X"], "ID"),
                (["update", "a", "b", "--given-name", "X"], "'b'"),
                (["update", "a", "--json"], "nothing to change"),
            ],
            "delete": [(["delete", "a", "--bogus"], "--bogus"), (["delete"], "ID")],
            "get": [
                (["get", "a", "--bogus"], "--bogus"), (["get", "a", "--json", "--json"], "--json"), (["get"], "ID"),
                (["get", "a", "b"], "'b'"),
            ],
            "list": [
                (["list", "--bogus"], "--bogus"), (["list", "--json", "--json"], "--json"),
                (["list", "extra"], "'extra'"),
                (["list", "--json=yes"], "--json"),
            ],
            "reset": [
                (["reset", "--bogus"], "--bogus"), (["reset", "now"], "'now'"), (["reset", "--json"], "--json"),
            ],
            "import": [
                (["import", "f.json", "--bogus"], "--bogus"), (["import"], "FILE"),
                (["import", "a.json", "b.json"], "'b.json'"),
                (["import", "f.json", "--stop-on-error", "--stop-on-error"], "--stop-on-error"),
            ],
            "export": [
                (["export", "--bogus"], "--bogus"), (["export", "--vcard", "--version", "9"], "--version"),
                (["export", "--vcard", "--version"], "--version"), (["export", "--vcard", "--vcard"], "--vcard"),
                (["export", "out.json"], "'out.json'"), (["export", "--json", "--vcard"], "--json"),
                (["export", "--version", "4.0"], "--version"), (["export", "--salvage", "--salvage"], "--salvage"),
            ],
            "device list": [
                (["device", "list", "--bogus"], "--bogus"), (["device", "list", "extra"], "'extra'"),
                (["device", "list", "--json", "--json"], "--json"),
            ],
            "device add": [(["device", "add", "--bogus"], "--bogus"), (["device", "add", "extra"], "'extra'")],
            "device delete": [(["device", "delete", "--bogus"], "--bogus"), (["device", "delete"], "ID")],
            "device groups": [
                (["device", "groups", "--bogus"], "--bogus"), (["device", "groups", "extra"], "'extra'"),
            ],
            "device group add": [
                (["device", "group", "add", "--bogus"], "--bogus"), (["device", "group", "add"], "NAME"),
                (["device", "group", "add", "a", "b"], "'b'"),
            ],
            "device group delete": [
                (["device", "group", "delete", "--bogus"], "--bogus"), (["device", "group", "delete"], "ID"),
            ],
            "device group members": [
                (["device", "group", "members", "--bogus"], "--bogus"), (["device", "group", "members"], "GROUP"),
            ],
            "device authorization": [
                (["device", "authorization", "--bogus"], "--bogus"), (["device", "authorization", "maybe"], "'maybe'"),
                (["device", "authorization", "--answer", "perhaps"], "'perhaps'"),
                (["device", "authorization", "a", "b"], "'b'"),
            ],
            "doctor": [
                (["doctor", "--bogus"], "--bogus"), (["doctor", "--repair", "--repair"], "--repair"),
                (["doctor", "extra"], "'extra'"), (["doctor", "--json", "--json"], "--json"),
            ],
            "enable": [
                (["enable", "--bogus"], "--bogus"), (["enable", "--page-size", "x"], "--page-size"),
                (["enable", "--page-size", "0"], "--page-size"),
                (["enable", "--page-timeout", "-1"], "--page-timeout"),
                (["enable", "--idle-timeout", "nan"], "--idle-timeout"),
                (["enable", "--items-limit", "1e3"], "--items-limit"),
                (["enable", "--batch-size", "1", "--batch-size", "2"], "--batch-size"),
                (["enable", "--extension"], "--extension"),
                (["enable", "extra"], "'extra'"),
                (["enable", "--target", "P"], "--target needs --xcode-project"),
            ],
            "disable": noOptions("disable"),
            // invalidate takes --json (its report), so a repeated one is the bad input.
            "invalidate": [
                (["invalidate", "--bogus"], "--bogus"), (["invalidate", "extra"], "'extra'"),
                (["invalidate", "--json", "--json"], "--json"),
            ],
            "signal": [
                (["signal", "--bogus"], "--bogus"), (["signal", "--timeout", "-1"], "--timeout"),
                (["signal", "--timeout", "x"], "--timeout"), (["signal", "--timeout", "inf"], "--timeout"),
                (["signal", "--wait", "--wait"], "--wait"), (["signal", "--timeout"], "--timeout"),
                (["signal", "now"], "'now'"),
            ],
            "status": [
                (["status", "--bogus"], "--bogus"), (["status", "--json", "--json"], "--json"),
                (["status", "x"], "'x'"),
            ],
            "system list": [
                (["system", "list", "--bogus"], "--bogus"), (["system", "list", "x"], "'x'"),
                (["system", "list", "--json", "--json"], "--json"),
            ],
            "system reset": noOptions("system", "reset"),
            "search": search("search"),
            "system search": search("system", "search"),
            "watch": [
                (["watch", "--bogus"], "--bogus"), (["watch", "--json", "--json"], "--json"), (["watch", "x"], "'x'"),
            ],
            "log": [
                (["log", "--bogus"], "--bogus"), (["log", "--level", "loud"], "--level"),
                (["log", "--subsystem"], "--subsystem"), (["log", "-f", "--follow"], "--follow"),
                (["log", "x"], "'x'"),
            ],
            "report": [
                (["report", "--bogus"], "--bogus"), (["report"], "--html"), (["report", "--html"], "--html"),
                (["report", "--html", "/nonexistent-directory/r.html"], "--html"),
                (["report", "--html", "/"], "--html"), (["report", "--html", "a.html", "x"], "'x'"),
                (["report", "--html", "a.html", "--html", "b.html"], "--html"),
            ],
            "step": [
                (["step", "--bogus"], "--bogus"), (["step", "--timeout", "-1"], "--timeout"),
                (["step", "--list", "--list"], "--list"),
                (["step", "--timeout"], "--timeout"), (["step", "x"], "'x'"),
            ],
            "conformance": [
                (["conformance", "--extension", "/bin/true", "--bogus"], "--bogus"),
                (["conformance", "--extension", "/bin/true", "--seed", "-1"], "--seed"),
                (["conformance", "--seed", "1"], "--extension"),
                (["conformance", "--extension", "/bin/true", "--operations", "0"], "--operations"),
                (["conformance", "--extension", "/bin/true", "--rules", "ZZ9"], "ZZ9"),
                (["conformance", "--extension", "/bin/true", "--seed"], "--seed"),
                (["conformance", "--extension", "a", "--extension", "b"], "--extension"),
                (["conformance", "--extension", "/bin/true", "x"], "'x'"),
                (["conformance", "--extension", "/bin/true", "--xcode-project", "A.xcodeproj"], "give one"),
                (["conformance", "--extension", "/bin/true", "--target", "P"], "--target needs --xcode-project"),
            ],
            "package": [
                (["package", "--xcode-project", "A.xcodeproj"], "--output"),
                (["package", "--output", "out"], "--xcode-project"),
                (["package", "--xcode-project", "A.xcodeproj", "--output", "out", "--bogus"], "--bogus"),
                (["package", "--xcode-project", "A.xcodeproj", "--output", "out", "x"], "'x'"),
                (["package", "--xcode-project"], "--xcode-project"),
            ],
            "generate": [
                (["generate", "10", "--bogus"], "--bogus"), (["generate"], "missing argument N"),
                (["generate", "0"], "positive integer"), (["generate", "ten"], "'ten'"),
                (["generate", "1", "2"], "'2'"),
                (["generate", "5", "--seed", "-1"], "--seed"), (["generate", "5", "--seed"], "--seed"),
            ],
            "demo": [
                (["demo", "--bogus"], "--bogus"), (["demo", "x"], "'x'"), (["demo", "--extension"], "--extension"),
                (["demo", "--extension", "a", "--extension", "b"], "--extension"),
            ],
            "demo carddav": [
                (["demo", "carddav", "--bogus"], "--bogus"), (["demo", "carddav", "x"], "'x'"),
                (["demo", "carddav", "--python"], "--python"),
                (["demo", "carddav", "--extension", "a", "--extension", "b"], "--extension"),
            ],
            "carddav configure": [
                (["carddav", "configure", "--url", "http://h/b/", "--bogus"], "--bogus"),
                (["carddav", "configure"], "--url"), (["carddav", "configure", "--url", "ftp://h/b/"], "--url"),
                (
                    ["carddav", "configure", "--url", "http://h/b/", "--password-file", "/etc/hostname"],
                    "--password-file"
                ),
                (["carddav", "configure", "--url", "http://a/", "--url", "http://b/"], "--url"),
                (["carddav", "configure", "--url", "http://h/b/", "extra"], "'extra'"),
            ],
        ]
    }()

    /// The command names in `contacts-host --help`.
    static func listedCommands() throws -> [String] {
        return try withTemporaryAppGroup { group in
            let help = try HostRunner.process.run(["--help"], in: group)
            #expect(help.exitCode == 0)
            var names: [String] = []
            var inCommands = false
            for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "COMMANDS:" {
                    inCommands = true
                } else if inCommands, line.hasPrefix("  ") {
                    // The name ends where two spaces start the summary (a long name gets just two).
                    let entry = line.dropFirst(2)
                    let end = entry.range(of: "  ")?.lowerBound ?? entry.endIndex
                    names.append(String(entry[..<end]))
                } else if inCommands, !line.isEmpty {
                    break
                }
            }
            return names
        }
    }

    @Test("The table covers exactly the commands listed by --help")
    func coversEveryCommand() throws {
        let listed = try Self.listedCommands()
        #expect(listed.count >= 21, "\(listed)")
        #expect(Set(listed) == Set(Self.cases.keys), "listed: \(listed.sorted()), table: \(Self.cases.keys.sorted())")
        for (command, rows) in Self.cases {
            #expect(rows.contains { $0.0.contains("--bogus") }, "\(command) has no unknown-option case")
        }
    }

    @Test(
        "Bad input exits 2 with one stderr line naming the problem, no stdout, and the App Group byte for byte unchanged",
        arguments: Self.cases.keys.sorted())
    func badInput(command: String) throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            for (id, name) in [("a", "Ada"), ("b", "Grace"), ("c", "Edsger")] {
                var record = ContactRecord(identifier: id)
                record.givenName = name
                try database.add(record)
            }
            try host(["enable"], in: group)
            #expect(group.providerPID() == nil, "no provider may be running")
            let before = ReliabilityTree.walk(group.path)
            #expect(before.count > 5, "the App Group should hold the database and the domain: \(before.keys.sorted())")

            let rows = try #require(Self.cases[command])
            for (arguments, mention) in rows {
                let result = try HostRunner.process.run(arguments, in: group)
                let shown = arguments.map { $0.debugDescription }.joined(separator: " ")
                #expect(result.exitCode == 2, "\(shown) → \(result)")
                #expect(result.stdout.isEmpty, "\(shown) → \(result)")
                let lines = result.stderrLines
                #expect(lines.count == 1, "\(shown) → \(result)")
                #expect(lines.first?.hasPrefix("error: ") == true, "\(shown) → \(result)")
                #expect(lines.first?.contains(mention) == true, "\(shown) should mention \(mention) → \(result)")
                let after = ReliabilityTree.walk(group.path)
                #expect(after == before, "\(shown) changed the App Group: \(ReliabilityTree.difference(before, after))")
            }
            #expect(group.providerPID() == nil, "a bad command line started a provider")
            #expect(try database.all().map(\.identifier) == ["a", "b", "c"])
            print(
                "bad input: \(command): \(rows.count) command lines, each exit 2 with one stderr line, App Group unchanged"
            )
        }
    }
}
