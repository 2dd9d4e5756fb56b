import AppGroupStore
import CommandLineToolkit
import Foundation

/// What a command needs to run.
package final class CommandContext {
    /// Where results and diagnostics go.
    package let output: CommandOutput
    /// The App Group in use.
    package let appGroup: AppGroup
    /// Where the choice of `appGroup` came from (flag, environment, default).
    package let appGroupSource: AppGroup.Source

    package init(output: CommandOutput, appGroup: AppGroup, appGroupSource: AppGroup.Source = .flag) {
        self.output = output
        self.appGroup = appGroup
        self.appGroupSource = appGroupSource
    }
}

/// A failure of the operation itself (exit code 1), as opposed to a usage error (exit code 2).
package struct CommandFailure: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// One exit status a command documents in its help.
package struct ExitCodeHelp: Sendable {
    /// The status.
    package let code: Int32
    /// What it means for this command.
    package let meaning: String

    package init(_ code: Int32, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }

    /// What every command's exit statuses mean unless it says otherwise.
    package static let standard: [ExitCodeHelp] = [
        ExitCodeHelp(0, "success"),
        ExitCodeHelp(1, "the operation failed (the message says what was, and was not, written)"),
        ExitCodeHelp(2, "usage error: nothing was run"),
    ]
}

/// One `contacts-host` command: its name, help, argument specs and behaviour.
///
/// The list of commands (`HostTool.commands`) is the single source of the tool's help, its
/// "did you mean" suggestions and its shell completion scripts.
package struct Command: Sendable {
    /// The words that select it (`["list"]`, `["system", "list"]`).
    package let name: [String]
    /// One line for the command list.
    package let summary: String
    /// Longer help, shown by `--help`.
    package var discussion: String { makeDiscussion() }
    /// Options.
    package var options: [OptionSpec] { makeOptions().map { $0.spec } }
    /// The discussion and the options are made when asked for, not when the command is: a run
    /// builds the whole command table, and making every command's option help texts cost each
    /// command a few tenths of a millisecond of first-use work (issue 27).
    private let makeDiscussion: @Sendable () -> String
    private let makeOptions: @Sendable () -> [any OptionDeclaration]
    /// Positional arguments.
    package let positional: PositionalSpec
    /// Complete command lines shown under EXAMPLES (a generic one is shown when empty).
    package let examples: [String]
    /// Environment variables the command reads besides the App Group's (names from `HelpFormatter.environmentVariables`).
    package let environment: [String]
    /// The exit statuses it documents.
    package let exitCodes: [ExitCodeHelp]
    /// Validates values (beyond the parser's checks) before anything runs; throws `UsageError`.
    package let validate: @Sendable (ParsedArguments) throws -> Void
    /// Runs the command; returns the exit code.
    package let run: @Sendable (ParsedArguments, CommandContext) async throws -> Int32
    /// The executable beside this one that runs the command (see ``ForwardedCommands``), or nil
    /// when this executable does.
    package let forwardedTo: String?

    package init(
        _ name: [String], summary: String, discussion: @autoclosure @escaping @Sendable () -> String = "",
        options: @autoclosure @escaping @Sendable () -> [any OptionDeclaration] = [],
        positional: PositionalSpec = .none, examples: [String] = [], environment: [String] = [],
        exitCodes: [ExitCodeHelp] = ExitCodeHelp.standard,
        validate: @escaping @Sendable (ParsedArguments) throws -> Void = { _ in },
        forwardedTo: String? = nil,
        run: @escaping @Sendable (ParsedArguments, CommandContext) async throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        makeDiscussion = discussion
        makeOptions = options
        self.positional = positional
        self.examples = examples
        self.environment = environment
        self.exitCodes = exitCodes
        self.validate = validate
        self.forwardedTo = forwardedTo
        self.run = run
    }

    /// A command `contacts-host` knows by name and summary only (for its help and suggestions) and
    /// hands, with all its arguments, to `executable` beside it.
    package static func forwarded(_ name: [String], summary: String, to executable: String) -> Command {
        Command(name, summary: summary, forwardedTo: executable) { _, _ in
            throw CommandFailure("'\(name.joined(separator: " "))' runs in \(executable), not in this process")
        }
    }

    /// The command's help text (`contacts-host help NAME`, `NAME --help`).
    package var help: String { HelpFormatter.help(for: self) }
}
