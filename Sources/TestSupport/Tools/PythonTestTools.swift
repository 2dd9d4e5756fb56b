import Foundation

/// The Python peers the tests talk to (Radicale, a real CardDAV server; vobject, an independent vCard
/// reader), installed on first use by `Scripts/install-test-tools.sh` into `.build/test-tools-venv`.
///
/// A fresh clone's `swift test` installs them itself. Where they cannot be installed (no network, no
/// `python3 -m venv`), tests that need them are skipped with the installer's reason — except when the
/// environment variable `CI` is set: there they run, and fail with that reason.
///
/// ```swift
/// @Test(.enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
/// func radicaleSync() throws {
///     let python = try PythonTestTools.python()
///     …
/// }
/// ```
package enum PythonTestTools {
    /// The outcome of running the installer once in this process.
    package enum Availability: Sendable {
        /// The virtual environment is ready; `python` is its interpreter.
        case installed(python: String)
        /// The installer failed; `reason` is what it said.
        case unavailable(reason: String)
    }

    /// The repository root (this file is `Sources/TestSupport/Tools/PythonTestTools.swift`).
    package static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Runs the installer once per process (it is idempotent and serialises itself across processes).
    package static let availability: Availability = {
        let script = repositoryRoot + "/Scripts/install-test-tools.sh"
        do {
            let result = try ProcessRunner.run("/bin/bash", [script])
            if result.exitCode == 0, !result.output.isEmpty {
                return .installed(python: result.output)
            }
            let said = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return .unavailable(reason: "\(script) exited \(result.exitCode): \(said)")
        } catch {
            return .unavailable(reason: "could not run \(script): \(error)")
        }
    }()

    /// Whether a test that needs the tools should run: always under CI (so a missing install fails
    /// loudly there), elsewhere only when they could be installed.
    package static var shouldRun: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        if case .installed = availability { return true }
        return false
    }

    /// The reason shown beside a skipped test (`Comment(rawValue: PythonTestTools.skipReason)`).
    package static var skipReason: String {
        if case .unavailable(let reason) = availability {
            return "Python test tools unavailable (set CI=1 to fail instead): \(reason)"
        }
        return "Python test tools installed"
    }

    /// The venv's `python3`, or an error carrying the installer's reason.
    package static func python() throws -> String {
        switch availability {
        case .installed(let python): return python
        case .unavailable(let reason): throw PythonTestToolsError(reason: reason)
        }
    }
}

/// The Python test tools could not be installed.
package struct PythonTestToolsError: Error, CustomStringConvertible {
    /// What the installer said.
    package let reason: String
    /// A one-line message naming the installer's reason.
    package var description: String { "the Python test tools could not be installed: \(reason)" }
}
