import Foundation

/// The Debian packages the tests use (`strace`, which records the file-system calls the power-loss
/// replay cuts), installed on first use by `Scripts/install-debian-test-tools.sh` with `apt-get`.
///
/// A fresh machine's `swift test` installs them itself (as root). Where they cannot be installed (not
/// root, no network), tests that need them are skipped with the installer's reason — except when the
/// environment variable `CI` is set: there they run, and fail with that reason.
///
/// ```swift
/// @Test(.enabled(if: DebianTestTools.shouldRun, Comment(rawValue: DebianTestTools.skipReason)))
/// func replay() throws {
///     let strace = try DebianTestTools.strace()
///     …
/// }
/// ```
public enum DebianTestTools {
    /// The outcome of running the installer once in this process.
    public enum Availability: Sendable {
        /// `strace` is installed at `strace`.
        case installed(strace: String)
        /// The installer failed; `reason` is what it said.
        case unavailable(reason: String)
    }

    /// Runs the installer once per process (it is idempotent and serialises itself across processes).
    public static let availability: Availability = {
        let script = PythonTestTools.repositoryRoot + "/Scripts/install-debian-test-tools.sh"
        do {
            let result = try ProcessRunner.run("/bin/bash", [script])
            if result.exitCode == 0, !result.output.isEmpty {
                return .installed(strace: result.output)
            }
            let said = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return .unavailable(reason: "\(script) exited \(result.exitCode): \(said)")
        } catch {
            return .unavailable(reason: "could not run \(script): \(error)")
        }
    }()

    /// Whether a test that needs the tools should run: always under CI (so a missing install fails
    /// loudly there), elsewhere only when they could be installed.
    public static var shouldRun: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        if case .installed = availability { return true }
        return false
    }

    /// The reason shown beside a skipped test (`Comment(rawValue: DebianTestTools.skipReason)`).
    public static var skipReason: String {
        if case .unavailable(let reason) = availability {
            return "Debian test tools unavailable (set CI=1 to fail instead): \(reason)"
        }
        return "Debian test tools installed"
    }

    /// The path of `strace`, or an error carrying the installer's reason.
    public static func strace() throws -> String {
        switch availability {
        case .installed(let strace): return strace
        case .unavailable(let reason): throw DebianTestToolsError(reason: reason)
        }
    }
}

/// The Debian test tools could not be installed.
public struct DebianTestToolsError: Error, CustomStringConvertible {
    /// What the installer said.
    public let reason: String
    /// A one-line message naming the installer's reason.
    public var description: String { "the Debian test tools (strace) could not be installed: \(reason)" }
}
