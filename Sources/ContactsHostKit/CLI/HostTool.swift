import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// `contacts-host`: the app (edits the App Group database) and its `ContactProviderManager`.
///
/// The executable is a thin shell: `HostTool.main(arguments:)` does everything, so tests can run
/// commands in-process as well as through the built binary.
package enum HostTool {
    /// Every command, in help order: those of ``ForwardedCommands`` by name and summary only
    /// (`contacts-host` runs `contacts-host-conformance` for them). `HostTool.allCommands`, in
    /// ContactsHostConformance, is the same list with their code.
    package static var commands: [Command] {
        ContactCommands.all + [GenerateCommand.command] + SystemCommands.all + DeviceCommands.all + InteropCommands.all
            + CardDAVCommands.all
            + [
                StepCommand.command, LogCommand.command, ReportCommand.command, ForwardedCommands.conformance,
                PackageCommand.command,
                DemoCommand.command,
                DoctorCommand.command,
            ]
    }

    /// The tool's help.
    package static var help: String { HelpFormatter.toolHelp(commands) }

    /// The tool's version (`--version`).
    package static let version = "0.1.0"

    /// Runs the tool with `arguments` (without the executable name); returns the exit code.
    ///
    /// A command of `commands` that is forwarded (``Command/forwardedTo``) replaces this process
    /// with the executable that runs it, as do its help and the completion scripts then.
    package static func main(
        arguments: [String], output: CommandOutput = StandardOutput(), commands: [Command] = commands
    ) async -> Int32 {
        let given = arguments
        var arguments = arguments
        // --app-group may come anywhere; take it out first. The App Group travels in the command's
        // context (and to providers as --app-group), never as process-wide state, so commands can
        // run in-process side by side, as the tests do.
        var (appGroup, appGroupSource) = AppGroup.currentWithSource
        do {
            if let chosen = try AppGroup.takeOption(from: &arguments) {
                appGroup = chosen
                appGroupSource = .flag
            }
        } catch {
            output.err("error: \(error)")
            return ExitCode.usage
        }
        guard let first = arguments.first else {
            output.err(HelpFormatter.toolHelp(commands))
            return ExitCode.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            let words = Array(arguments.dropFirst())
            let named = words.filter { $0 != "--help" && $0 != "-h" }
            if let forwarded = commands.first(where: { $0.name == named })?.forwardedTo {
                return ForwardedCommands.run(forwarded, arguments: given, output: output)
            }
            return printHelp(for: words, output: output, commands: commands)
        }
        if first == "--version" || (first == "--json" && arguments.dropFirst().first == "--version") {
            var rest = arguments
            rest.remove(at: rest.firstIndex(of: "--version") ?? 0)
            return printVersion(rest, output: output)
        }
        if first == "--generate-completion-script" || first.hasPrefix("--generate-completion-script=") {
            // The scripts list every command's options: the executable that declares them all writes them.
            if let forwarded = commands.lazy.compactMap(\.forwardedTo).first {
                return ForwardedCommands.run(forwarded, arguments: given, output: output)
            }
            let shell =
                first.hasPrefix("--generate-completion-script=")
                ? String(first.dropFirst("--generate-completion-script=".count))
                : (arguments.count > 1 ? arguments[1] : "")
            guard let script = CompletionScripts.script(for: shell, commands: commands) else {
                output.err(
                    "error: --generate-completion-script expects one of \(CompletionScripts.shells.joined(separator: ", ")), got '\(shell)'"
                )
                return ExitCode.usage
            }
            output.out(script)
            return ExitCode.success
        }
        let matching = commands.filter { arguments.starts(with: $0.name) }.max { $0.name.count < $1.name.count }
        guard let command = matching else {
            let groups = commands.filter { $0.name.count > 1 && $0.name[0] == first }
            if !groups.isEmpty {
                let rest = arguments.dropFirst()
                if rest.contains("--help") || rest.contains("-h") {
                    output.out(HelpFormatter.groupHelp(first, commands))
                    return ExitCode.success
                }
                let names = groups.map { $0.name.joined(separator: " ") }
                if let second = rest.first, !second.hasPrefix("-") {
                    output.err(
                        "error: unknown subcommand '\(first) \(second)'"
                            + Suggestions.didYouMean("\(first) \(second)", among: names))
                } else {
                    output.err("error: '\(first)' needs a subcommand: \(names.joined(separator: ", "))")
                }
            } else if first.hasPrefix("-") {
                // An option before any command (`contacts-host --json`): say where options go.
                output.err(
                    "error: '\(first)' is an option of a command, not a command; put it after one"
                        + " (e.g. 'contacts-host status \(first)'); run 'contacts-host --help' for the list")
            } else {
                let suggestion = Suggestions.didYouMean(first, among: commandWords(commands))
                output.err(
                    "error: unknown command '\(first)'"
                        + (suggestion.isEmpty ? "; run 'contacts-host --help' for the list" : suggestion))
            }
            return ExitCode.usage
        }
        if let forwarded = command.forwardedTo {
            return ForwardedCommands.run(forwarded, arguments: given, output: output)
        }
        let rest = Array(arguments.dropFirst(command.name.count))
        if rest.contains("--help") || rest.contains("-h") {
            output.out(command.help)
            return ExitCode.success
        }
        let parsed: ParsedArguments
        do {
            parsed = try parseArguments(
                rest, options: command.options, positional: command.positional, globalOptions: [AppGroup.option.name])
            try command.validate(parsed)
        } catch {
            // A command without JSON output says which commands have it, rather than only "unknown option".
            let refusal = JSONOutput.refusal(for: command, arguments: rest, commands: commands)
            output.err(usageError(refusal ?? error, command: command))
            return ExitCode.usage
        }
        do {
            // Opened without following a link in its last component, and tightened to 0700 (issue 10 item 3).
            try SecureFile.checkAppGroupRoot(appGroup.path)
            // Say so when a command creates an App Group: the default lies outside the working
            // directory, and a new one named by --app-group or the variable is most likely a typo.
            let existed = FileManager.default.fileExists(atPath: appGroup.path)
            defer {
                if !existed, FileManager.default.fileExists(atPath: appGroup.path) {
                    output.err(Self.createdNote(appGroup.path, source: appGroupSource))
                }
            }
            // The store's commit points tell this witness when the command has made a change durable.
            let witness = CommitWitness()
            let code = try await CommitWitness.$current.withValue(witness) {
                try await command.run(
                    parsed, CommandContext(output: output, appGroup: appGroup, appGroupSource: appGroupSource))
            }
            if let failure = (output as? StandardOutput)?.failure {
                output.err(StandardOutput.committedButUnprinted(failure))
            }
            return code
        } catch let error as UsageError {
            output.err(usageError(error, command: command))
            return ExitCode.usage
        } catch is RunsInNetworkedExecutable {
            // A contact command on a server's store: the executable that links networking runs it
            // (nothing was written here: the store is chosen before any change).
            return ForwardedCommands.run(ForwardedCommands.executable, arguments: given, output: output)
        } catch {
            output.err("error: \(describe(error))")
            return ExitCode.failure
        }
    }

    /// What a command says on stderr when it has just created the App Group at `path`: the default
    /// says where it is and how to choose another; one named by `--app-group` or the variable says
    /// that nothing was there, so a mistyped path is seen at once instead of silently starting empty.
    static func createdNote(_ path: String, source: AppGroup.Source) -> String {
        switch source {
        case .default:
            "note: created the App Group \(path) (the per-user default; --app-group DIR or $\(AppGroup.environmentVariable) choose another)"
        case .flag, .environment:
            "note: created the App Group \(path) (\(source.explanation); there was none: if you meant an existing one, check the path)"
        }
    }

    /// `contacts-host --version [--json]`: the version as text, or as `{"version": V}` with `--json`;
    /// any other word after it is a usage error.
    static func printVersion(_ rest: [String], output: CommandOutput) -> Int32 {
        switch rest {
        case []:
            output.out("contacts-host \(version)")
        case ["--json"]:
            do {
                output.out(try ContactJSON.report(["version": version]))
            } catch {
                output.err("error: \(describe(error))")
                return ExitCode.failure
            }
        default:
            output.err("error: --version takes only --json, got '\(rest.joined(separator: " "))'")
            return ExitCode.usage
        }
        return ExitCode.success
    }

    /// A usage error's one line, ending with where to look: `error: add: missing option '--given-name G'
    /// (see 'contacts-host help add')`.
    static func usageError(_ error: any Error, command: Command) -> String {
        let name = command.name.joined(separator: " ")
        return "error: \(name): \(error) (see 'contacts-host help \(name)')"
    }

    /// The words that may start a command line (commands and group names), for suggestions.
    static func commandWords(_ commands: [Command]) -> [String] {
        CompletionScripts.firstWords(commands) + ["help"]
    }

    /// `contacts-host help [COMMAND...]`: the tool's, a group's or a command's help.
    static func printHelp(for words: [String], output: CommandOutput, commands: [Command]) -> Int32 {
        let words = words.filter { $0 != "--help" && $0 != "-h" }
        guard let first = words.first else {
            output.out(HelpFormatter.toolHelp(commands))
            return ExitCode.success
        }
        if let command = commands.first(where: { $0.name == words }) {
            output.out(command.help)
            return ExitCode.success
        }
        if words.count == 1, commands.contains(where: { $0.name.count > 1 && $0.name[0] == first }) {
            output.out(HelpFormatter.groupHelp(first, commands))
            return ExitCode.success
        }
        if let option = words.first(where: { $0.hasPrefix("-") }) {
            output.err(
                "error: help: '\(option)' is not a command; 'contacts-host help' takes command names"
                    + " (e.g. 'contacts-host help status'), and each command's help lists its options")
            return ExitCode.usage
        }
        let name = words.joined(separator: " ")
        let names = commands.map { $0.name.joined(separator: " ") }
        output.err(
            "error: help: unknown command '\(name)'"
                + Suggestions.didYouMean(name, among: names + commandWords(commands)))
        return ExitCode.usage
    }

    /// One line for any error.
    static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description + (localized.failureReason.map { " \($0)" } ?? "")
        }
        return String(describing: error)
    }
}
