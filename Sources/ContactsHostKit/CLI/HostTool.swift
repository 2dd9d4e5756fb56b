import AppGroupStore
import Foundation

/// `contacts-host`: the app (edits the App Group database) and its `ContactProviderManager`.
///
/// The executable is a thin shell: `HostTool.main(arguments:)` does everything, so tests can run
/// commands in-process as well as through the built binary.
public enum HostTool {
    /// Exit codes.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 2
    }

    /// Every command, in help order.
    public static var commands: [Command] {
        ContactCommands.all + SystemCommands.all + InteropCommands.all + CardDAVCommands.all + [StepCommand.command, ConformanceCommand.command, DemoCommand.command, DoctorCommand.command]
    }

    /// The tool's help.
    public static var help: String {
        var text = """
            USAGE: contacts-host [--app-group DIR] <command> [options]

            The host app of a simulated Contact Provider extension: edits the app's contacts in the
            App Group, acts as ContactProviderManager, and shows what the system received.

            COMMANDS:

            """
        for command in commands {
            let name = command.name.joined(separator: " ")
            text += "  " + name.padding(toLength: 18, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'contacts-host <command> --help' for a command's options.\n"
        return text
    }

    /// Runs the tool with `arguments` (without the executable name); returns the exit code.
    public static func main(arguments: [String], output: CommandOutput = StandardOutput()) async -> Int32 {
        var arguments = arguments
        // --app-group may come anywhere; take it out first.
        var appGroup = AppGroup.current
        do {
            if let index = arguments.firstIndex(where: { $0 == "--app-group" || $0.hasPrefix("--app-group=") }) {
                let argument = arguments.remove(at: index)
                let value: String
                if argument.hasPrefix("--app-group=") {
                    value = String(argument.dropFirst("--app-group=".count))
                } else {
                    guard index < arguments.count else { throw UsageError("option '--app-group' needs a value (DIR)") }
                    value = arguments.remove(at: index)
                }
                guard !value.isEmpty else { throw UsageError("option '--app-group' needs a value (DIR)") }
                if arguments.contains(where: { $0 == "--app-group" || $0.hasPrefix("--app-group=") }) {
                    throw UsageError("option '--app-group' was given more than once")
                }
                appGroup = AppGroup(path: value)
                AppGroup.use(appGroup)
            }
        } catch {
            output.err("error: \(error)")
            return ExitCode.usage
        }
        guard let first = arguments.first else {
            output.err(help)
            return ExitCode.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            output.out(help)
            return ExitCode.success
        }
        if first == "--version" {
            output.out("contacts-host 0.1.0")
            return ExitCode.success
        }
        let matching = commands.filter { arguments.starts(with: $0.name) }.max { $0.name.count < $1.name.count }
        guard let command = matching else {
            let groups = commands.filter { $0.name.count > 1 && $0.name[0] == first }
            if !groups.isEmpty {
                let names = groups.map { $0.name.joined(separator: " ") }.joined(separator: ", ")
                output.err("error: '\(first)' needs a subcommand: \(names)")
            } else {
                output.err("error: unknown command '\(first)'; run 'contacts-host --help' for the list")
            }
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst(command.name.count))
        if rest.contains("--help") || rest.contains("-h") {
            output.out(command.help)
            return ExitCode.success
        }
        let parsed: ParsedArguments
        do {
            parsed = try parseArguments(rest, options: command.options, positional: command.positional)
            try command.validate(parsed)
        } catch {
            output.err("error: \(command.name.joined(separator: " ")): \(error)")
            return ExitCode.usage
        }
        do {
            return try await command.run(parsed, CommandContext(output: output, appGroup: appGroup))
        } catch let error as UsageError {
            output.err("error: \(command.name.joined(separator: " ")): \(error)")
            return ExitCode.usage
        } catch {
            output.err("error: \(describe(error))")
            return ExitCode.failure
        }
    }

    /// One line for any error.
    static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description + (localized.failureReason.map { " \($0)" } ?? "")
        }
        return String(describing: error)
    }
}
