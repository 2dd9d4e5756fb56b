import Foundation

/// A tool the tests use that comes from Debian's packages, installed on first use by
/// `Scripts/install-debian-test-tools.sh` (`strace` for the crash tests, `gdb` and `lldb-16` for the debugger tests,
/// `chromium` for the HTML reports' browser tests).
///
/// A fresh clone's `swift test` installs them itself (the tests run as root on CI): system-wide, so
/// before the first install it says on stderr what it installs and why (``installNotice``), and
/// `CPS_NO_SYSTEM_INSTALL=1` (``noSystemInstallVariable``) turns the installs off. Where one is missing
/// and cannot or may not be installed, ``path(of:)`` throws the reason, so a test that needs it fails
/// with words (naming the variable when it is set) instead of skipping.
package enum DebianTestTool {
    /// Why a tool is not available.
    package struct Unavailable: Error, CustomStringConvertible {
        /// What the installer said.
        package let description: String
    }

    /// The environment variable that turns the system-wide installs off (`1`): a missing tool then
    /// fails its tests with a message naming the variable.
    package static let noSystemInstallVariable = "CPS_NO_SYSTEM_INSTALL"

    /// The Debian packages the tests may install system-wide, each with why (declared once: the notice
    /// and the README's "Tests and CI" say the same).
    package static let packages: [(name: String, why: String)] = [
        ("strace", "the crash and power-loss tests' system-call recorder"),
        ("gdb", "a debugger of the debugging tests"),
        (LLDBTool.package, "the other debugger of the debugging tests"),
        (ChromiumTool.package, "the headless browser that loads the HTML reports"),
    ]

    /// What `swift test` prints on stderr before its first system-wide install.
    package static var installNotice: String {
        "swift test: installing missing Debian packages system-wide with apt-get (as root): "
            + packages.map { "\($0.name) (\($0.why))" }.joined(separator: ", ")
            + "; \(noSystemInstallVariable)=1 turns this off (the tests that need them then fail, naming it)"
    }

    /// What to do for a tool the tests need.
    package enum Decision: Equatable, Sendable {
        /// It is installed at this path.
        case installed(String)
        /// It is missing: run the installer (after printing ``installNotice`` once).
        case install
        /// It is missing and installs are turned off: fail with this message.
        case refuse(String)
    }

    /// The decision for `tool`, found at `installedPath` (nil: not on `PATH`), under `environment`.
    package static func decision(for tool: String, installedPath: String?, environment: [String: String])
        -> Decision
    {
        if let installedPath { return .installed(installedPath) }
        if let value = environment[noSystemInstallVariable], !value.isEmpty, value != "0" {
            return .refuse(
                "\(tool) is not installed, and \(noSystemInstallVariable)=\(value) turns off the tests' system-wide "
                    + "installs: install the Debian package '\(tool)' yourself (apt-get install \(tool)), or unset "
                    + "\(noSystemInstallVariable) to let the tests install it")
        }
        return .install
    }

    /// The installer's outcome per tool, computed once per process.
    private static let located = LockedCache<String, Result<String, Unavailable>>()

    /// The notice, printed once per process, before the first install.
    private static let noticePrinted = LockedCache<String, Bool>()

    /// The path of `tool` (a Debian package of the same name), installing it first if needed.
    package static func path(of tool: String) throws -> String {
        try located.value(for: tool) {
            let environment = ProcessInfo.processInfo.environment
            switch decision(
                for: tool, installedPath: executable(tool, environment: environment), environment: environment)
            {
            case .installed(let path): return .success(path)
            case .refuse(let message): return .failure(Unavailable(description: message))
            case .install:
                _ = noticePrinted.value(for: "notice") {
                    FileHandle.standardError.write(Data((installNotice + "\n").utf8))
                    return true
                }
            }
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

extension DebianTestTool {
    /// The executable `name` on the `PATH` of `environment` (as `command -v` finds it), or nil.
    static func executable(_ name: String, environment: [String: String]) -> String? {
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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
