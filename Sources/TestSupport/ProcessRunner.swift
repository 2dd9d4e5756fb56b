import Foundation
import Glibc

/// The outcome of running a process to completion.
package struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status (or, when a signal ended the process, the signal's number).
    package let exitCode: Int32
    /// Everything written to standard output.
    package let stdout: String
    /// Everything written to standard error.
    package let stderr: String

    /// A result with these parts (e.g. from a command run in process).
    package init(exitCode: Int32, stdout: String, stderr: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderr = stderr
    }

    package var description: String {
        "exit \(exitCode)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" + namedLogTail
    }

    /// The last lines of the provider log that stderr names (`… (its log: PATH)`), read now: a
    /// failing test's App Group, and the log with it, is removed when the test ends, and a rare
    /// "the provider exited before answering" could not be explained without it.
    private var namedLogTail: String {
        guard let start = stderr.range(of: "(its log: "),
            let end = stderr[start.upperBound...].firstIndex(of: ")"),
            let log = try? String(contentsOfFile: String(stderr[start.upperBound..<end]), encoding: .utf8)
        else { return "" }
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).suffix(40)
        return "--- the log it names, last \(lines.count) lines\n" + lines.joined(separator: "\n")
    }

    /// stdout without the trailing newline.
    package var output: String {
        stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout
    }

    /// The non-empty lines of stderr.
    package var stderrLines: [String] {
        stderr.split(separator: "\n").map(String.init)
    }
}

/// Runs built executables the way a user would, capturing stdout, stderr and the exit code
/// (swift-argument-parser's `AssertExecuteCommand` model).
package enum ProcessRunner {
    /// Runs `executable` with `arguments`; waits for it (and never leaves it running).
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: Data? = nil,
        currentDirectory: String? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try runUnblocked(process)
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so neither fills up and blocks the child.
        let group = DispatchGroup()
        let collected = Collected()
        group.enter()
        DispatchQueue.global().async {
            collected.setOut(out.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            collected.setErr(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            exitCode: process.terminationStatus, stdout: String(decoding: collected.out, as: UTF8.self),
            stderr: String(decoding: collected.err, as: UTF8.self))
    }

    /// Starts `process` with no signal blocked, as a shell starts a command. Foundation's `Process`
    /// passes on the calling thread's signal mask, and a test runs on a thread of the concurrency
    /// pool, which blocks almost every signal: a child then never saw a SIGTERM (a benchmark's load
    /// processes kept spinning after their `terminate()`, stalling the suite for minutes).
    package static func runUnblocked(_ process: Process) throws {
        var none = sigset_t()
        sigemptyset(&none)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }
}

private final class Collected: @unchecked Sendable {
    // Each field is written by one reader thread before `group.leave()`, and read after `group.wait()`.
    var out = Data()
    var err = Data()
    func setOut(_ data: Data) { out = data }
    func setErr(_ data: Data) { err = data }
}
