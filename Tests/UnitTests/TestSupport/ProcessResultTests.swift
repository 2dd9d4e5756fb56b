import Foundation
import TestSupport
import Testing

/// A failing command's description carries the provider log its error names, read while the test's
/// App Group still exists.
@Suite struct ProcessResultTests {
    @Test("the description ends with the last lines of the log stderr names")
    func namedLogIsShown() throws {
        let path = NSTemporaryDirectory() + "process-result-\(getpid()).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = (1...50).map { "line \($0)" }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = ProcessResult(
            exitCode: 1, stdout: "",
            stderr: "error: the provider exited before answering (its log: \(path))\n")
        #expect(result.description.contains("line 50"))
        #expect(result.description.contains("line 11"))
        #expect(!result.description.contains("line 10\n"), "more than the last 40 lines")
        let without = ProcessResult(exitCode: 1, stdout: "", stderr: "error: something else\n")
        #expect(without.description == "exit 1\n--- stdout\n--- stderr\nerror: something else\n")
    }
}
