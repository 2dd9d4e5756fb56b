import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host help and usage errors, run as the built binary (the in-process cases are UsageTests)")
struct UsageCLITests {
    static let contactCommands = ["add", "update", "delete", "get", "list", "reset", "import", "export"]

    @Test("--help on the tool lists every contact command and exits 0", arguments: [["--help"], ["-h"], ["help"]])
    func toolHelp(arguments: [String]) throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(arguments, in: group)
            #expect(result.exitCode == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("USAGE: contacts-host [--app-group DIR] <command> [options]"))
            for command in Self.contactCommands {
                #expect(result.stdout.contains("\n  \(command) "), "\(command) missing from help")
            }
            #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
        }
    }

    @Test("--help on each contact command shows its usage and options and exits 0", arguments: contactCommands)
    func commandHelp(command: String) throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run([command, "--help"], in: group)
            #expect(result.exitCode == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("USAGE: contacts-host \(command)"))
            #expect(result.stdout.contains("OPTIONS:"))
            #expect(result.stdout.contains("--app-group DIR"))
            #expect(result.stdout.contains("--help"))
            // Help never runs the command.
            #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
        }
    }

    @Test("add --help documents its field options")
    func addHelpOptions() throws {
        try withTemporaryAppGroup { group in
            let help = try HostRunner.process.succeed(["add", "--help"], in: group)
            for option in [
                "--given-name G", "--family-name F", "--phone [LABEL=]NUMBER ...", "--birthday YYYY-MM-DD", "--id ID",
            ] {
                #expect(help.contains(option), "\(option)")
            }
        }
    }

    @Test("Standard labels in any case and custom labels far from a standard one are accepted")
    func labelsAccepted() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                [
                    "add", "--id", "l", "--given-name", "L", "--phone", "Mobile=+1 555", "--phone", "Studio=123 456",
                    "--email", "icloud=l@icloud.com",
                ],
                in: group)
            let record = try #require(try CLIHarness.database(group).get("l"))
            #expect(record.phoneNumbers.map(\.label) == ["_$!<Mobile>!$_", "Studio"])
        }
    }

    @Test("A usage error from the built binary: exit 2, one line on stderr, nothing on stdout, nothing written")
    func usageErrorThroughTheBinary() throws {
        try withTemporaryAppGroup { group in
            let result = try HostRunner.process.run(["add", "--given-name", "X", "--bogus"], in: group)
            CLIHarness.expectUsageError(result, mentioning: "unknown option '--bogus'")
            #expect(!FileManager.default.fileExists(atPath: group.appGroup.contactsDirectory))
        }
    }
}
