import ContactsHostConformance
import ContactsHostKit
import Foundation
import Testing

/// Runs `contacts-host` in a test's App Group, in this process or as the built executable: the one
/// spelling of running the host in a test (issue 29, item 3; issue 46 finished the move to it).
///
/// - ``inProcess``: `HostTool.main(arguments:output:commands:)` with `allCommands` (every command's
///   code), the App Group given as `--app-group=PATH`; async, and it cannot fail to start. For
///   parsing and formatting, which need no process of their own.
/// - ``process``: the built `contacts-host`; synchronous, and it throws when the executable cannot be
///   started. For what needs a process: standard input, signals, exit codes seen by a shell, the
///   environment.
///
/// Each has `run` (the result, whatever it is) and `succeed` (exit 0 and nothing on stderr required;
/// returns stdout without its final newline).
package enum HostRunner {
    /// Commands in this process.
    package static let inProcess = InProcess()
    /// Commands as the built executable.
    package static let process = Executable()

    /// The in-process mode.
    package struct InProcess: Sendable {
        /// Runs `contacts-host arguments...` in `group`; the result has the shape of a process's.
        package func run(_ arguments: [String], in group: TemporaryAppGroup) async -> ProcessResult {
            let output = CapturedOutput()
            let code = await HostTool.main(
                arguments: arguments + ["--app-group=" + group.path], output: output, commands: HostTool.allCommands)
            return ProcessResult(exitCode: code, stdout: output.stdout, stderr: output.stderr)
        }

        /// Runs `contacts-host arguments...` with no App Group at all: help, usage errors and completion
        /// scripts, which touch none.
        package func run(_ arguments: [String]) async -> ProcessResult {
            let output = CapturedOutput()
            let code = await HostTool.main(arguments: arguments, output: output, commands: HostTool.allCommands)
            return ProcessResult(exitCode: code, stdout: output.stdout, stderr: output.stderr)
        }

        /// Runs and requires success with an empty stderr; returns stdout without its final newline.
        @discardableResult
        package func succeed(
            _ arguments: [String], in group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation
        ) async -> String {
            HostRunner.requireSuccess(await run(arguments, in: group), of: arguments, at: sourceLocation)
        }
    }

    /// The built executable.
    package struct Executable: Sendable {
        /// Runs `contacts-host arguments...` in `group`, with `stdin` as its standard input.
        package func run(_ arguments: [String], in group: TemporaryAppGroup, stdin: Data? = nil) throws
            -> ProcessResult
        {
            try run(arguments, environment: group.environment, stdin: stdin)
        }

        /// Runs `contacts-host` with `arguments` and `environment` (this process's when nil), e.g. one
        /// that names no App Group or adds variables to a `TemporaryAppGroup`'s.
        package func run(
            _ arguments: [String], environment: [String: String]? = nil, stdin: Data? = nil,
            currentDirectory: String? = nil
        ) throws -> ProcessResult {
            try ProcessRunner.run(
                BuiltProducts.path("contacts-host"), arguments, environment: environment, stdin: stdin,
                currentDirectory: currentDirectory)
        }

        /// Runs and requires success with an empty stderr; returns stdout without its final newline.
        @discardableResult
        package func succeed(
            _ arguments: [String], in group: TemporaryAppGroup, stdin: Data? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> String {
            HostRunner.requireSuccess(try run(arguments, in: group, stdin: stdin), of: arguments, at: sourceLocation)
        }
    }

    /// The one check of a command that must succeed: exit 0 and nothing on stderr.
    package static func requireSuccess(
        _ result: ProcessResult, of arguments: [String], at sourceLocation: SourceLocation
    )
        -> String
    {
        #expect(result.exitCode == 0, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        return result.output
    }
}
