import ContactsHostConformance
import ContactsHostKit
import Foundation
import Testing

/// Runs `contacts-host` in a test's App Group, in this process or as the built executable: one
/// runner, two modes, and one spelling of "run it and require success" (issue 29, item 3).
///
/// In process (`HostTool.main(arguments:output:commands:)` with `allCommands`, every command's code;
/// the App Group given as `--app-group=PATH`) is for parsing and formatting; a process is for what
/// needs one (standard input, signals, exit codes seen by a shell). `InProcessHost` and `CLIHarness` are these two modes by their older names.
package struct HostRunner: Sendable {
    /// Where the command runs.
    package enum Mode: Sendable {
        /// In this process.
        case inProcess
        /// As the built `contacts-host` executable.
        case process
    }

    /// Where the commands run.
    package let mode: Mode

    /// Commands in this process.
    package static let inProcess = HostRunner(mode: .inProcess)
    /// Commands as the built executable.
    package static let process = HostRunner(mode: .process)

    /// Runs `contacts-host arguments...` in `group`; `stdin` needs the process mode.
    package func run(_ arguments: [String], in group: TemporaryAppGroup, stdin: Data? = nil) async throws
        -> ProcessResult
    {
        switch mode {
        case .inProcess:
            precondition(stdin == nil, "standard input needs HostRunner.process")
            let output = CapturedOutput()
            let code = await HostTool.main(
                arguments: arguments + ["--app-group=" + group.path], output: output, commands: HostTool.allCommands)
            return ProcessResult(exitCode: code, stdout: output.stdout, stderr: output.stderr)
        case .process:
            return try ProcessRunner.host(arguments, in: group, stdin: stdin)
        }
    }

    /// Runs and requires success with an empty stderr; returns stdout without its final newline.
    @discardableResult
    package func succeed(
        _ arguments: [String], in group: TemporaryAppGroup, stdin: Data? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        Self.requireSuccess(try await run(arguments, in: group, stdin: stdin), of: arguments, at: sourceLocation)
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
