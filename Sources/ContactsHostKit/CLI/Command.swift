import AppGroupStore
import Foundation

/// What a command needs to run.
public final class CommandContext {
    /// Where results and diagnostics go.
    public let output: CommandOutput
    /// The App Group in use.
    public let appGroup: AppGroup

    public init(output: CommandOutput, appGroup: AppGroup) {
        self.output = output
        self.appGroup = appGroup
    }
}

/// A failure of the operation itself (exit code 1), as opposed to a usage error (exit code 2).
public struct CommandFailure: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One `contacts-host` command: its name, help, argument specs and behaviour.
public struct Command: Sendable {
    /// The words that select it (`["list"]`, `["system", "list"]`).
    public let name: [String]
    /// One line for the command list.
    public let summary: String
    /// Longer help, shown by `--help`.
    public let discussion: String
    /// Options.
    public let options: [OptionSpec]
    /// Positional arguments.
    public let positional: PositionalSpec
    /// Validates values (beyond the parser's checks) before anything runs; throws `UsageError`.
    public let validate: @Sendable (ParsedArguments) throws -> Void
    /// Runs the command; returns the exit code.
    public let run: @Sendable (ParsedArguments, CommandContext) async throws -> Int32

    public init(
        _ name: [String], summary: String, discussion: String = "", options: [OptionSpec] = [],
        positional: PositionalSpec = .none, validate: @escaping @Sendable (ParsedArguments) throws -> Void = { _ in },
        run: @escaping @Sendable (ParsedArguments, CommandContext) async throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positional = positional
        self.validate = validate
        self.run = run
    }

    /// The command's help text.
    public var help: String {
        var usage = "USAGE: contacts-host \(name.joined(separator: " "))"
        if !options.isEmpty { usage += " [options]" }
        if positional.maximum > 0 {
            let repeated = positional.maximum > 1 ? "..." : ""
            usage += positional.minimum == 0 ? " [\(positional.name)\(repeated)]" : " \(positional.name)\(repeated)"
        }
        var text = usage + "\n\n" + summary + "\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        text += "\nOPTIONS:\n"
        let rows = options + [
            OptionSpec("--app-group", value: "DIR", help: "The App Group directory (default: $CONTACT_PROVIDER_APP_GROUP or ./AppGroup)."),
            OptionSpec("--help", help: "Show this help."),
        ]
        for option in rows {
            let left = option.name + (option.value.map { " \($0)" } ?? "") + (option.repeatable ? " ..." : "")
            text += "  " + left.padding(toLength: max(28, left.count + 2), withPad: " ", startingAt: 0) + option.help + "\n"
        }
        return text
    }
}
