import Foundation

/// `strace`, the system-call tracer the crash tests use to interrupt a command before any one of its
/// system calls (`-e inject=…`), installed on first use from Debian's packages by
/// `Scripts/install-debian-test-tools.sh`.
///
/// A fresh clone's `swift test` installs it itself (the tests run as root on CI). Where it cannot be
/// installed, ``path()`` throws the installer's reason, so a test that needs it fails with words
/// instead of skipping.
public enum StraceTool {
    /// Why strace is not available.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What the installer said.
        public let description: String
    }

    /// The installer's outcome, computed once per process.
    private static let located: Result<String, Unavailable> = {
        let script = PythonTestTools.repositoryRoot + "/Scripts/install-debian-test-tools.sh"
        do {
            let result = try ProcessRunner.run("/bin/bash", [script, "strace"])
            if result.exitCode == 0, !result.output.isEmpty { return .success(result.output) }
            return .failure(Unavailable(description: "strace could not be installed: \(result.stderr)"))
        } catch {
            return .failure(Unavailable(description: "strace could not be installed: \(error)"))
        }
    }()

    /// The path of `strace`, installing it first if needed.
    public static func path() throws -> String {
        try located.get()
    }
}
