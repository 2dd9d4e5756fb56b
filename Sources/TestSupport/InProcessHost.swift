import ContactsHostKit
import Foundation
import Testing

/// Runs `contacts-host` commands in this process through `HostTool.main(arguments:output:)`, with the
/// test's App Group given as `--app-group=PATH` (it travels in the command's context, so these run side
/// by side): for parsing and formatting, which need no process of their own.
package enum InProcessHost {
    /// Runs `contacts-host arguments...` in `group` in process; the result has the shape of a process's.
    package static func run(_ arguments: [String], in group: TemporaryAppGroup) async -> ProcessResult {
        let output = CapturedOutput()
        let code = await HostTool.main(arguments: arguments + ["--app-group=" + group.path], output: output)
        return ProcessResult(exitCode: code, stdout: output.stdout, stderr: output.stderr)
    }

    /// Runs in process and requires success with an empty stderr; returns stdout without its final newline.
    @discardableResult
    package static func succeed(
        _ arguments: [String], in group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String {
        let result = await run(arguments, in: group)
        #expect(result.exitCode == 0, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        return result.output
    }
}
