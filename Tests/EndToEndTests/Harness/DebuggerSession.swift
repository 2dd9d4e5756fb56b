import ContactProviderSystem
import Foundation
import Glibc
import TestSupport

/// A debugger the tests drive as a developer does: gdb, or Debian's lldb.
enum Debugger: String, CaseIterable, CustomStringConvertible, Sendable {
    case gdb
    case lldb

    var description: String { rawValue }

    /// The debugger's executable, installed first if needed.
    func path() throws -> String {
        switch self {
        case .gdb: try GDBTool.path()
        case .lldb: try LLDBTool.path()
        }
    }

    /// Arguments that start `executable arguments…` under the debugger (nothing runs until `run`).
    func launchArguments(_ executable: String, _ arguments: [String]) -> [String] {
        switch self {
        case .gdb: ["-q", "-nx", "--args", executable] + arguments
        case .lldb: ["--no-lldbinit", "--", executable] + arguments
        }
    }

    /// Arguments that attach to `pid` (stopped once attached).
    func attachArguments(_ pid: pid_t) -> [String] {
        switch self {
        case .gdb: ["-q", "-nx", "-p", "\(pid)"]
        case .lldb: ["--no-lldbinit", "-p", "\(pid)"]
        }
    }

    /// Settings so that nothing waits for a confirmation or a page key.
    var quietCommands: [String] {
        switch self {
        case .gdb: ["set pagination off", "set confirm off"]
        case .lldb: ["settings set auto-confirm true"]
        }
    }

    /// The command that sets a breakpoint at `file:line`.
    func breakpoint(file: String, line: Int) -> String {
        switch self {
        case .gdb: "break \(file):\(line)"
        case .lldb: "breakpoint set --file \(file) --line \(line)"
        }
    }

    /// What the debugger prints when the `number`th breakpoint set is hit.
    func hitText(_ number: Int) -> String {
        switch self {
        case .gdb: "hit Breakpoint \(number),"
        case .lldb: "stop reason = breakpoint \(number)."
        }
    }
}

/// A real debugger (gdb or lldb) with a provider as its inferior, driven as a developer drives it:
/// commands on its standard input, its console read line by line.
///
/// Every wait is for a line the debugger prints (the signal) and bounded, so a breakpoint that never
/// hits fails the test instead of hanging it. `end()` kills the inferior (SIGKILL works on a traced,
/// stopped process) and then the debugger.
final class DebuggerSession: @unchecked Sendable {
    /// Which debugger runs.
    let debugger: Debugger
    private let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var lines: [String] = []
    private var consumed = 0
    private var ended = false
    private var breakpoints = 0

    /// Starts `executable arguments…` under `debugger` with `environment`; nothing runs until `run`.
    convenience init(
        _ debugger: Debugger, executable: String, arguments: [String], environment: [String: String]
    ) throws {
        try self.init(debugger, debugger.launchArguments(executable, arguments), environment: environment)
    }

    /// Attaches `debugger` to `pid` (the process stops once attached).
    convenience init(_ debugger: Debugger, attachingTo pid: pid_t, environment: [String: String]) throws {
        try self.init(debugger, debugger.attachArguments(pid), environment: environment)
    }

    /// Runs `command` as a shell runs a line pasted from a guide or a command's output (`gdb --args …`);
    /// the debugger is installed first if needed, so the shell finds it on the PATH.
    convenience init(_ debugger: Debugger, pastedCommand command: String, environment: [String: String]) throws {
        _ = try debugger.path()
        try self.init(debugger, executable: "/bin/sh", ["-c", command], environment: environment)
    }

    private convenience init(_ debugger: Debugger, _ arguments: [String], environment: [String: String]) throws {
        try self.init(debugger, executable: try debugger.path(), arguments, environment: environment)
    }

    private init(
        _ debugger: Debugger, executable: String, _ arguments: [String], environment: [String: String]
    ) throws {
        self.debugger = debugger
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        // A test runs on a Dispatch worker thread, which blocks almost every signal, and a spawned
        // child inherits the mask: a debugger with SIGCHLD blocked never notices its inferior stop, and
        // hangs at `run`. Spawn it with nothing blocked, as a shell would start it.
        var nothing = sigset_t()
        var previous = sigset_t()
        sigemptyset(&nothing)
        pthread_sigmask(SIG_SETMASK, &nothing, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try ProcessRunner.runUnblocked(process)
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = reader.availableData
                condition.lock()
                if chunk.isEmpty {
                    if !buffer.isEmpty { lines.append(String(decoding: buffer, as: UTF8.self)) }
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        for command in debugger.quietCommands { send(command) }
    }

    /// Types `command` at the debugger's prompt (read when it is at the prompt: not while the inferior runs).
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Sets a breakpoint at `file:line`; returns the text the debugger prints when it is hit.
    func setBreakpoint(file: String, line: Int) -> String {
        send(debugger.breakpoint(file: file, line: line))
        condition.lock()
        breakpoints += 1
        let number = breakpoints
        condition.unlock()
        return debugger.hitText(number)
    }

    /// The next line (after those already matched) containing `text`, waiting up to `seconds`; nil
    /// when the debugger ended or the time passed first.
    func next(containing text: String, within seconds: Double = 120) -> String? {
        let limit = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                if line.contains(text) { return line }
            }
            if ended || !condition.wait(until: limit) { return nil }
        }
    }

    /// The debugger's pid.
    var pid: pid_t { process.processIdentifier }

    /// Everything the debugger printed so far, for a failure's message.
    var transcript: String {
        condition.lock()
        defer { condition.unlock() }
        return lines.suffix(60).joined(separator: "\n")
    }

    /// Kills `inferior` (when known) and the debugger, and waits for the debugger to exit.
    func end(inferior: pid_t?) {
        if let inferior { kill(inferior, SIGKILL) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Runs `body` on its own thread and waits for it up to `seconds` (nil when it did not finish): a
/// host command that is meant to block while the provider sits at a breakpoint.
final class BackgroundCommand<Result: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Swift.Result<Result, any Error>?

    init(_ body: @escaping @Sendable () throws -> Result) {
        Thread.detachNewThread { [self] in
            result = Swift.Result { try body() }
            done.signal()
        }
    }

    /// The command's result once it finished, waiting up to `seconds`; nil if it is still running.
    func wait(seconds: Double) throws -> Result? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return try result!.get()
    }
}

/// A process's ancestry, from `/proc/PID/stat` as `ProcessReaper` reads it (its tracer:
/// `DebuggerPresence.tracerPID(of:)`).
enum ProcStatus {
    /// The parent's pid, or nil when the process is gone.
    static func parent(of pid: pid_t) -> pid_t? {
        ProcessReaper.status(pid)?.parent
    }

    /// Whether `ancestor` is `pid` or one of its ancestors (lldb on Linux starts and traces its
    /// inferior from a child `lldb-server`, gdb directly).
    static func isDescendant(_ pid: pid_t, of ancestor: pid_t) -> Bool {
        var current: pid_t? = pid
        while let process = current, process > 1 {
            if process == ancestor { return true }
            current = parent(of: process)
        }
        return false
    }
}
