import Foundation
import TestSupport
import Testing

/// Tests start commands the way a shell does: a test runs on a thread that blocks almost every
/// signal, and Foundation's `Process` would pass that mask on to the command.
@Suite("Test support: commands start with no signal blocked")
struct ProcessRunnerSignalTests {
    @Test("a command ProcessRunner starts has an empty signal mask")
    func nothingBlocked() throws {
        let result = try ProcessRunner.run("/bin/sh", ["-c", "grep SigBlk /proc/self/status"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000", "\(result)")
    }
}
