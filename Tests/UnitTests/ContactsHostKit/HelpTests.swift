import CommandLineToolkit
import ContactsHostConformance
import ContactsHostKit
import Foundation
import TestSupport
import Testing

@Suite("contacts-host help: every command and group, usage lines, examples, environment, exit codes")
struct HelpTests {
    static let commandNames = HostTool.allCommands.map(\.name)

    @Test("'help COMMAND', 'COMMAND --help' and 'COMMAND -h' print the same command help", arguments: commandNames)
    func commandHelp(name: [String]) async {
        let viaHelp = await HostRunner.inProcess.run(["help"] + name)
        let viaFlag = await HostRunner.inProcess.run(name + ["--help"])
        let viaShort = await HostRunner.inProcess.run(name + ["-h"])
        #expect(viaHelp.exitCode == 0 && viaFlag.exitCode == 0 && viaShort.exitCode == 0)
        #expect(viaHelp.stderr.isEmpty && viaFlag.stderr.isEmpty)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaShort.stdout == viaFlag.stdout)
        let text = viaHelp.stdout
        let joined = name.joined(separator: " ")
        #expect(text.hasPrefix("USAGE: contacts-host \(joined)"))
        for section in ["OPTIONS:", "EXAMPLES:", "ENVIRONMENT:", "EXIT CODES:"] {
            #expect(text.contains("\n\(section)\n"), "\(joined): \(section) missing")
        }
        #expect(text.contains("CONTACT_PROVIDER_APP_GROUP"))
        #expect(text.contains("\n  2 "), "\(joined): exit code 2 undocumented")
        let examples = text.components(separatedBy: "\nEXAMPLES:\n")[1].components(separatedBy: "\n\n")[0]
        for example in examples.split(separator: "\n") {
            #expect(example.contains("contacts-host \(joined)"), "\(example)")
        }
        // Every option of the command is in the usage line and the option list.
        let command = HostTool.allCommands.first { $0.name == name }!
        for option in command.options {
            #expect(HelpFormatter.usage(for: command).contains(option.synopsis), "\(option.name)")
            #expect(text.contains("  \(option.synopsis)"), "\(option.name)")
        }
    }

    @Test("A required option is shown bare in the usage line, optional ones in brackets")
    func requiredOptionInUsage() async {
        let text = await HostRunner.inProcess.run(["help", "package"]).stdout
        let usage = text.components(separatedBy: "\n\n")[0]
        #expect(usage.contains(" --xcode-project PATH "))
        #expect(!usage.contains("[--xcode-project PATH]"))
        #expect(usage.contains("[--target NAME]"))
        #expect(text.contains("whose Contact Provider extension to package. (required)"))
        let missingOutput = await HostRunner.inProcess.run(["package", "--xcode-project", "My.xcodeproj"])
        #expect(missingOutput.exitCode == 2)
        #expect(missingOutput.stderr.contains("missing option '--output DIR'"), "\(missingOutput.stderr)")
        // conformance needs --extension or --xcode-project: neither is required alone.
        let missing = await HostRunner.inProcess.run(["conformance", "--seed", "1"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("missing option '--extension PATH' (or '--xcode-project PATH')"))
    }

    @Test("Command-specific environment variables and exit codes are listed")
    func environmentAndExitCodes() async {
        let enable = await HostRunner.inProcess.run(["enable", "--help"]).stdout
        #expect(enable.contains("CONTACT_PROVIDER_EXTENSION"))
        #expect(enable.contains("CONTACT_PROVIDER_USER_DECISION"))
        let signal = await HostRunner.inProcess.run(["help", "signal"]).stdout
        #expect(signal.contains("the sync failed"))
    }

    @Test(
        "A group's help lists its subcommands",
        arguments: [["system", "--help"], ["help", "system"], ["system", "-h"]])
    func groupHelp(arguments: [String]) async {
        let result = await HostRunner.inProcess.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("USAGE: contacts-host system <subcommand>"))
        for command in HostTool.allCommands where command.name.count == 2 && command.name[0] == "system" {
            #expect(result.stdout.contains("\n  \(command.name[1]) "), "\(command.name)")
        }
    }

    @Test("The tool's help lists -h, --help, --version and --generate-completion-script")
    func toolHelp() async {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = await HostRunner.inProcess.run(arguments)
            #expect(result.exitCode == 0)
            for option in ["-h, --help", "--version", "--generate-completion-script SHELL", "--app-group DIR"] {
                #expect(result.stdout.contains("  \(option)"), "\(option)")
            }
        }
        let version = await HostRunner.inProcess.run(["--version"])
        #expect(version.exitCode == 0)
        #expect(version.stdout == "contacts-host \(HostTool.version)\n")
    }

    @Test(
        "A mistyped command, subcommand or option gets a 'did you mean' on its one error line",
        arguments: [
            (["singal"], "unknown command 'singal'; did you mean 'signal'?"),
            (["stauts"], "did you mean 'status'?"),
            (["list", "--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
            (["signal", "--wiat"], "did you mean '--wait'?"),
            (["system", "lst"], "unknown subcommand 'system lst'; did you mean 'system list'?"),
            (["help", "ad"], "unknown command 'ad'; did you mean 'add'?"),
            (["add", "--given-nam", "X"], "did you mean '--given-name'?"),
        ])
    func didYouMean(arguments: [String], message: String) async {
        let result = await HostRunner.inProcess.run(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(
        "An option where a command belongs says where options go, on one line",
        arguments: [
            (["--json"], "'--json' is an option of a command, not a command; put it after one"),
            (["help", "--json"], "help: '--json' is not a command; 'contacts-host help' takes command names"),
            (["help", "status", "--json"], "help: '--json' is not a command"),
        ])
    func optionInsteadOfCommand(arguments: [String], message: String) async {
        let result = await HostRunner.inProcess.run(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("A word close to nothing gets no suggestion")
    func noSuggestion() async {
        let result = await HostRunner.inProcess.run(["frobnicate"])
        #expect(result.exitCode == 2)
        #expect(!result.stderr.contains("did you mean"))
        #expect(result.stderr.contains("run 'contacts-host --help' for the list"))
    }

    @Test("Edit distance counts insertions, deletions, substitutions and neighbour swaps")
    func editDistance() {
        #expect(Suggestions.editDistance("singal", "signal") == 1)
        #expect(Suggestions.editDistance("jsn", "json") == 1)
        #expect(Suggestions.editDistance("", "abc") == 3)
        #expect(Suggestions.editDistance("kitten", "sitting") == 3)
        #expect(Suggestions.closest(to: "--jsn", among: ["--json", "--trace"]) == ["--json"])
        #expect(Suggestions.closest(to: "zzzzzz", among: ["signal", "status"]).isEmpty)
    }
}
