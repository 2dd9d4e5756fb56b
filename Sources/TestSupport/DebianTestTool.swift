import Foundation

/// A tool the tests use that comes from Debian's packages, installed on first use by
/// `Scripts/install-debian-test-tools.sh` (`strace` for the crash tests, `gdb` and `lldb-16` for the debugger tests).
///
/// A fresh clone's `swift test` installs them itself (the tests run as root on CI). Where one cannot
/// be installed, ``path(of:)`` throws the installer's reason, so a test that needs it fails with
/// words instead of skipping.
package enum DebianTestTool {
    /// Why a tool is not available.
    package struct Unavailable: Error, CustomStringConvertible {
        /// What the installer said.
        package let description: String
    }

    /// The installer's outcome per tool, computed once per process.
    private static let located = LockedCache<String, Result<String, Unavailable>>()

    /// The path of `tool` (a Debian package of the same name), installing it first if needed.
    package static func path(of tool: String) throws -> String {
        try located.value(for: tool) {
            let script = PythonTestTools.repositoryRoot + "/Scripts/install-debian-test-tools.sh"
            do {
                let result = try ProcessRunner.run("/bin/bash", [script, tool])
                if result.exitCode == 0, !result.output.isEmpty { return .success(result.output) }
                return .failure(Unavailable(description: "\(tool) could not be installed: \(result.stderr)"))
            } catch {
                return .failure(Unavailable(description: "\(tool) could not be installed: \(error)"))
            }
        }.get()
    }
}

/// `strace`, the system-call tracer the crash tests use to interrupt a command before any one of its
/// system calls (`-e inject=…`).
package enum StraceTool {
    /// The path of `strace`, installing it first if needed.
    package static func path() throws -> String {
        try DebianTestTool.path(of: "strace")
    }
}

/// `gdb`, one of the two debuggers the debugging tests run a provider under (it reads the Swift
/// toolchain's DWARF).
package enum GDBTool {
    /// The path of `gdb`, installing it first if needed.
    package static func path() throws -> String {
        try DebianTestTool.path(of: "gdb")
    }
}

/// Debian's `lldb-16`, the other debugger of the debugging tests. The toolchain's own `lldb` needs a
/// `libpython` Debian 12 does not ship; Debian's build runs (without Swift's language plugin, so
/// breakpoints, stepping and backtraces work and Swift variables are shown only in part).
package enum LLDBTool {
    /// The Debian package, which is also the command's name.
    package static let package = "lldb-16"

    /// The path of `lldb-16`, installing it first if needed.
    package static func path() throws -> String {
        try DebianTestTool.path(of: package)
    }
}

/// A value per key, computed once under a lock.
final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    func value(for key: Key, _ compute: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value = values[key] { return value }
        let value = compute()
        values[key] = value
        return value
    }
}
