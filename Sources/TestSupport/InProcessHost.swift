import ContactsHostKit
import Foundation
import Testing

/// `HostRunner.inProcess` by its older name: runs `contacts-host` commands in this process through `HostTool.main(arguments:output:)`, with the
/// test's App Group given as `--app-group=PATH` (it travels in the command's context, so these run side
/// by side): for parsing and formatting, which need no process of their own.
package enum InProcessHost {
    /// Runs `contacts-host arguments...` in `group` in process; the result has the shape of a process's.
    package static func run(_ arguments: [String], in group: TemporaryAppGroup) async -> ProcessResult {
        // The in-process mode never throws (it reads no standard input).
        (try? await HostRunner.inProcess.run(arguments, in: group))
            ?? ProcessResult(exitCode: -1, stdout: "", stderr: "")
    }

    /// Runs in process and requires success with an empty stderr; returns stdout without its final newline.
    @discardableResult
    package static func succeed(
        _ arguments: [String], in group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String {
        HostRunner.requireSuccess(await run(arguments, in: group), of: arguments, at: sourceLocation)
    }
}
