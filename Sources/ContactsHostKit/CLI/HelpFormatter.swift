import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// Renders the tool's, a command group's and a command's help from the command table.
package enum HelpFormatter {
    /// Every environment variable a command may list, with what it does.
    package static let environmentVariables: [String: String] = [
        AppGroup.environmentVariable: "The App Group directory when --app-group is not given.",
        "XDG_DATA_HOME":
            "With HOME, places the default App Group ($XDG_DATA_HOME/contact-provider-simulator/AppGroup).",
        "CONTACT_PROVIDER_EXTENSION":
            "The provider executable when none is registered yet and --extension is not given.",
        "CONTACT_PROVIDER_USER_DECISION": "'deny' simulates the user declining the Contacts access prompt.",
        "CONTACT_PROVIDER_APP_NAME":
            "The domain's display name (default: the Xcode project's app display name, else the App Group directory's name).",
        "OSLOG_DISABLE": "1 silences the provider's Logger output on stderr.",
        "CONTACTS_HOST_PROGRESS": "1 prints progress lines on stderr even when it is not a terminal; 0 never.",
        FileLock.timeoutVariable:
            "Seconds to wait for a database, store or domain lock before failing (default 30).",
        XcodeProjectBuild.simulatorVariable:
            "With --xcode-project: the simulator package's folder, if not found from this executable's location.",
    ]

    /// What every command reads: where the App Group is, and how long a lock is waited for.
    static let appGroupVariables = [AppGroup.environmentVariable, "XDG_DATA_HOME", FileLock.timeoutVariable]

    /// The options every command accepts besides its own.
    static let commonOptions = [
        AppGroup.option.spec,
        OptionSpec("-h, --help", help: "Show this help."),
    ]

    /// The tool's own options, shown by `contacts-host --help`.
    static let toolOptions = [
        AppGroup.option.spec,
        OptionSpec("-h, --help", help: "Show this help; 'contacts-host help COMMAND' shows a command's."),
        OptionSpec("--version", help: "Print the version; with --json, one line of JSON: \(JSONOutput.versionShape)."),
        OptionSpec(
            "--generate-completion-script", value: "SHELL", help: "Print a completion script for bash, zsh or fish."),
    ]

    /// `contacts-host --help`.
    package static func toolHelp(_ commands: [Command]) -> String {
        var text = """
            USAGE: contacts-host [--app-group DIR] <command> [options]

            The host app of a simulated Contact Provider extension: edits the app's contacts in the
            App Group, acts as ContactProviderManager, and shows what the system received.

            COMMANDS:

            """
        for command in commands {
            let name = command.name.joined(separator: " ")
            text += "  " + commandColumn(name) + command.summary + "\n"
        }
        text += "\nOPTIONS:\n" + optionRows(toolOptions)
        text += "\nSee 'contacts-host help <command>' or 'contacts-host <command> --help' for a command's options.\n"
        return text
    }

    /// A command's name padded to the summaries' column; a longer name (`device authorization`)
    /// keeps two spaces before its summary instead of being cut.
    static func commandColumn(_ name: String) -> String {
        // At least two spaces: a 17-character name (`carddav configure`) must not run into its summary.
        name.count < 17 ? name.padding(toLength: 18, withPad: " ", startingAt: 0) : name + "  "
    }

    /// `contacts-host system --help`: the subcommands of a group.
    package static func groupHelp(_ group: String, _ commands: [Command]) -> String {
        let members = commands.filter { $0.name.count > 1 && $0.name[0] == group }
        var text = "USAGE: contacts-host \(group) <subcommand> [options]\n\nSUBCOMMANDS:\n"
        for command in members {
            let name = command.name.dropFirst().joined(separator: " ")
            text += "  " + commandColumn(name) + command.summary + "\n"
        }
        text += "\nSee 'contacts-host help \(group) <subcommand>' for a subcommand's options.\n"
        return text
    }

    /// `contacts-host help COMMAND`, `COMMAND --help`.
    package static func help(for command: Command) -> String {
        let name = command.name.joined(separator: " ")
        var text = usage(for: command) + "\n\n" + command.summary + "\n"
        if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
        text += "\nOPTIONS:\n" + optionRows(command.options + commonOptions)
        let examples = command.examples.isEmpty ? ["contacts-host \(name)"] : command.examples
        text += "\nEXAMPLES:\n" + examples.map { "  " + $0 + "\n" }.joined()
        text += "\nENVIRONMENT:\n"
        text += rows((appGroupVariables + command.environment).map { ($0, environmentVariables[$0] ?? "") })
        text += "\nEXIT CODES:\n" + rows(command.exitCodes.map { (String($0.code), $0.meaning) })
        return text
    }

    /// `USAGE: contacts-host NAME --required X [--optional Y] [ARG...]`, wrapped at 100 columns.
    package static func usage(for command: Command) -> String {
        let prefix = "USAGE: contacts-host \(command.name.joined(separator: " "))"
        var words = command.options.map { $0.required ? $0.synopsis : "[\($0.synopsis)]" }
        let positional = command.positional
        if positional.maximum > 0 {
            let repeated = positional.maximum > 1 ? " ..." : ""
            words.append(positional.minimum == 0 ? "[\(positional.name)\(repeated)]" : "\(positional.name)\(repeated)")
        }
        var lines = [prefix]
        let indent = String(repeating: " ", count: prefix.count)
        for word in words {
            if lines[lines.count - 1].count + 1 + word.count > 100 { lines.append(indent) }
            lines[lines.count - 1] += " " + word
        }
        return lines.joined(separator: "\n")
    }

    private static func optionRows(_ options: [OptionSpec]) -> String {
        // The short spelling after the long one, so a row still starts with the synopsis.
        rows(
            options.map {
                ($0.synopsis + ($0.short.map { ", \($0)" } ?? ""), $0.help + ($0.required ? " (required)" : ""))
            })
    }

    /// Two columns, the second aligned after the widest first cell.
    private static func rows(_ rows: [(String, String)]) -> String {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { left, right in
            "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + right + "\n"
        }.joined()
    }
}
