import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host help and usage errors, run as the built binary")
struct UsageCLITests {
    static let contactCommands = ["add", "update", "delete", "get", "list", "reset", "import", "export"]

    @Test("--help on the tool lists every contact command and exits 0", arguments: [["--help"], ["-h"], ["help"]])
    func toolHelp(arguments: [String]) throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let result = try CLIHarness.run(arguments, in: group)
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("USAGE: contacts-host [--app-group DIR] <command> [options]"))
        for command in Self.contactCommands {
            #expect(result.stdout.contains("\n  \(command) "), "\(command) missing from help")
        }
        #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
    }

    @Test("--help on each contact command shows its usage and options and exits 0", arguments: contactCommands)
    func commandHelp(command: String) throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let result = try CLIHarness.run([command, "--help"], in: group)
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("USAGE: contacts-host \(command)"))
        #expect(result.stdout.contains("OPTIONS:"))
        #expect(result.stdout.contains("--app-group DIR"))
        #expect(result.stdout.contains("--help"))
        // Help never runs the command.
        #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
    }

    @Test("add --help documents its field options")
    func addHelpOptions() throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let help = try CLIHarness.succeed(["add", "--help"], in: group)
        for option in ["--given-name G", "--family-name F", "--phone [LABEL=]NUMBER ...", "--birthday YYYY-MM-DD", "--id ID"] {
            #expect(help.contains(option), "\(option)")
        }
    }

    @Test("Standard labels in any case and custom labels far from a standard one are accepted")
    func labelsAccepted() throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        try CLIHarness.succeed(
            ["add", "--id", "l", "--given-name", "L", "--phone", "Mobile=+1 555", "--phone", "Studio=123 456", "--email", "icloud=l@icloud.com"],
            in: group)
        let record = try #require(try CLIHarness.database(group).get("l"))
        #expect(record.phoneNumbers.map(\.label) == ["_$!<Mobile>!$_", "Studio"])
    }

    @Test("Running with no command prints the help on stderr and exits 2")
    func noCommand() throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        let result = try CLIHarness.run([], in: group)
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("USAGE: contacts-host"))
    }

    @Test(
        "Bad command-line input exits 2 with one line on stderr, nothing on stdout and the database untouched",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["add", "--given-name", "X", "--bogus"], "unknown option '--bogus'"),
            (["add", "-x", "--given-name", "X"], "unknown option '-x'"),
            (["list", "--verbose"], "unknown option '--verbose'"),
            (["add", "--given-name"], "option '--given-name' needs a value"),
            (["add", "--given-name", "--family-name", "F"], "option '--given-name' needs a value"),
            (["add", "--given-name", "A", "--given-name", "B"], "given more than once"),
            (["add", "--given-name", "X", "--birthday", "1990-13-01"], "option '--birthday' expects YYYY-MM-DD or --MM-DD"),
            (["add", "--given-name", "X", "--birthday", "May 17"], "option '--birthday'"),
            (["update", "seed", "--birthday", "--5-17"], "option '--birthday'"),
            (["add", "--phone", "1"], "a contact needs --given-name, --family-name or --organization"),
            (["add", "--given-name", "X", "--phone", "work="], "option '--phone' needs a non-empty value"),
            (["add", "--given-name", "X", "--id", ""], "option '--id'"),
            (["update", "seed"], "nothing to change"),
            (["get"], "missing argument ID"),
            (["update", "--given-name", "X"], "missing argument ID"),
            (["delete"], "expected at least 1 ID argument(s)"),
            (["import"], "missing argument FILE"),
            (["get", "seed", "extra"], "unexpected argument 'extra'"),
            (["add", "positional", "--given-name", "X"], "unexpected argument 'positional'"),
            (["list", "extra"], "unexpected argument 'extra'"),
            (["reset", "now"], "unexpected argument 'now'"),
            (["export", "out.json"], "unexpected argument 'out.json'"),
            (["import", "a.json", "b.json"], "unexpected argument 'b.json'"),
            (["list", "--json=yes"], "takes no value"),
            (["--app-group"], "option '--app-group' needs a value"),
            (["add", "--given-name", "X", "--phone", "call me"], "option '--phone' needs a number with at least one digit"),
            (["add", "--given-name", "X", "--phone", "work=n/a"], "option '--phone' needs a number with at least one digit"),
            (["update", "seed", "--email", "ada.example.com"], "option '--email' needs an address like name@example.com"),
            (["add", "--given-name", "X", "--email", "work=ada@"], "option '--email' needs an address"),
            (["add", "--given-name", "X", "--phone", "moblie=+1 555"], "label 'moblie' looks like a misspelt 'mobile'"),
            (["add", "--given-name", "X", "--email", "wrok=a@b.c"], "label 'wrok' looks like a misspelt 'work'"),
            (["update", "seed", "--url", "homepgae=https://example.com"], "looks like a misspelt 'homepage'"),
        ])
    func usageError(arguments: [String], message: String) throws {
        let group = TemporaryAppGroup()
        defer { group.cleanUp() }
        try CLIHarness.succeed(["add", "--id", "seed", "--given-name", "Seed"], in: group)
        let before = CLIHarness.databaseFiles(group)
        let result = try CLIHarness.run(arguments, in: group)
        CLIHarness.expectUsageError(result, mentioning: message)
        #expect(CLIHarness.databaseFiles(group) == before)
        #expect(try CLIHarness.database(group).all().map(\.identifier) == ["seed"])
    }
}
