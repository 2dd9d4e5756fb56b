import Foundation
import Glibc
import TestSupport
import Testing

/// Reads newline-terminated lines from a pipe with blocking reads (`availableData` waits for data).
final class WatchLineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline; nil at end of file. Blocks until a whole line arrived.
    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(chunk)
        }
    }

    /// Every line up to end of file (call once the writer has exited).
    func remainingLines() -> [String] {
        var lines: [String] = []
        while let line = nextLine() { lines.append(line) }
        return lines
    }
}

/// A running `contacts-host watch`, with its stdout and stderr read line by line.
///
/// A watchdog stops the watcher if the test has not stopped it within `timeout` seconds, so a missing
/// line fails the test (the blocking read sees end of file) instead of hanging the run. It is a safety
/// net only: the test synchronises on the lines themselves.
final class WatchProcess: @unchecked Sendable {
    // Used from the test's thread only; the watchdog touches nothing but `state` and the pid.
    let process: Process
    let stdout: WatchLineReader
    let stderr: WatchLineReader
    private let state = WatchdogState()
    private let watchdog: DispatchWorkItem

    init(_ group: TemporaryAppGroup, arguments: [String] = ["watch", "--json"], timeout: Double = 120) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
        process.arguments = arguments
        process.environment = group.environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        self.process = process
        stdout = WatchLineReader(out.fileHandleForReading)
        stderr = WatchLineReader(err.fileHandleForReading)
        let pid = process.processIdentifier
        let state = self.state
        watchdog = DispatchWorkItem { state.killUnlessFinished(pid) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    }

    /// Reads stderr until the `watching …` line; returns it (nil if the watcher ended first).
    func waitUntilReady() -> String? {
        while let line = stderr.nextLine() {
            if line.hasPrefix("watching ") { return line }
        }
        return nil
    }

    /// Sends SIGINT and waits for the watcher to exit.
    func interrupt() {
        process.interrupt()
        process.waitUntilExit()
        finish()
    }

    /// Stops the watcher if it still runs (for `defer`, when a test ends early); a stopped
    /// (SIGSTOP) watcher is continued so it can act on the SIGTERM.
    func stop() {
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGCONT)
            process.waitUntilExit()
        }
        finish()
    }

    private func finish() {
        state.markFinished()
        watchdog.cancel()
    }

    /// The next stdout line parsed as a JSON object.
    func nextJSONLine(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let line = try #require(
            stdout.nextLine(), "the watcher ended without printing a line", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(line)", sourceLocation: sourceLocation)
    }
}

/// Whether the test already stopped the watcher (then the watchdog must not touch its pid).
private final class WatchdogState: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = false

    func markFinished() {
        lock.lock()
        finished = true
        lock.unlock()
    }

    func killUnlessFinished(_ pid: pid_t) {
        lock.lock()
        defer { lock.unlock() }
        if !finished { kill(pid, SIGKILL) }
    }
}

/// `contacts-host watch`: the `CNContactStoreDidChange` analogue, run as the built binary.
@Suite("Interop: watch through the built contacts-host")
struct WatchCLITests {
    /// The FIFOs in the domain's watchers directory.
    private func watcherFIFOs(_ group: TemporaryAppGroup) -> [String] {
        let directory = group.path + "/run/defaultDomain/watchers"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".fifo")
        }
    }

    @Test("watch --json prints one line per commit (updated, deleted) and a reset line; SIGINT removes its FIFO")
    func watchJSON() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)

            let watcher = try WatchProcess(group)
            defer { watcher.stop() }
            let ready = try #require(watcher.waitUntilReady(), "watch never printed its 'watching …' line")
            #expect(ready.hasPrefix("watching "))
            #expect(watcherFIFOs(group).count == 1, "the watcher should have created one FIFO: \(watcherFIFOs(group))")

            try host(["add", "--id", "w1", "--given-name", "Wanda", "--family-name", "Watcher"], in: group)
            try host(["signal", "--wait"], in: group)
            let added = try watcher.nextJSONLine()
            #expect(added["kind"] as? String == "commit", "\(added)")
            #expect(added["updated"] as? [String] == ["w1"], "\(added)")
            #expect(added["deleted"] as? [String] == [], "\(added)")
            #expect(added["systemCount"] as? Int == 1, "\(added)")
            let firstSeq = try #require(added["seq"] as? Int, "\(added)")

            try host(["delete", "w1"], in: group)
            try host(["signal", "--wait"], in: group)
            let deleted = try watcher.nextJSONLine()
            #expect(deleted["kind"] as? String == "commit", "\(deleted)")
            #expect(deleted["deleted"] as? [String] == ["w1"], "\(deleted)")
            #expect(deleted["updated"] as? [String] == [], "\(deleted)")
            #expect(deleted["systemCount"] as? Int == 0, "\(deleted)")
            #expect((deleted["seq"] as? Int).map { $0 > firstSeq } == true, "seq must grow: \(deleted)")

            try host(["system", "reset"], in: group)
            let reset = try watcher.nextJSONLine()
            #expect(reset["kind"] as? String == "reset", "\(reset)")

            watcher.interrupt()
            #expect(!watcher.process.isRunning)
            #expect(watcher.process.terminationReason == .exit, "the SIGINT handler should exit, not die of the signal")
            #expect(watcher.process.terminationStatus == 128 + SIGINT)
            #expect(watcherFIFOs(group).isEmpty, "the watcher left its FIFO behind: \(watcherFIFOs(group))")
            #expect(watcher.stdout.remainingLines() == [], "one line per change, nothing more")

            try stopProvider(group)
            #expect(group.providerPID() == nil)
        }
    }

    @Test("Doorbells that pile up while the watcher is stopped still give one line per page, in order")
    func coalescedDoorbells() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1"], in: group)
            let watcher = try WatchProcess(group)
            defer { watcher.stop() }
            _ = try #require(watcher.waitUntilReady(), "watch never printed its 'watching …' line")
            for id in ["a", "b", "c"] { try host(["add", "--id", id, "--given-name", id.uppercased()], in: group) }

            // Freeze the watcher (waitid reports the stop: no sleep), sync three pages, then let it go:
            // its FIFO then holds three doorbells that it reads at once.
            let pid = watcher.process.processIdentifier
            #expect(kill(pid, SIGSTOP) == 0)
            var info = siginfo_t()
            #expect(waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOWAIT) == 0)
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["systemCount"] as? Int == 3)
            #expect(kill(pid, SIGCONT) == 0)

            let lines = try (0..<3).map { _ in try watcher.nextJSONLine() }
            #expect(lines.map { $0["kind"] as? String } == ["commit", "commit", "commit"], "\(lines)")
            #expect(lines.map { $0["updated"] as? [String] } == [["a"], ["b"], ["c"]], "\(lines)")
            let seqs = lines.compactMap { $0["seq"] as? Int }
            #expect(seqs.count == 3 && seqs == seqs.sorted() && Set(seqs).count == 3, "\(lines)")
            #expect(lines.map { $0["systemCount"] as? Int } == [1, 2, 3], "\(lines)")

            watcher.interrupt()
            #expect(watcher.stdout.remainingLines() == [], "three doorbells must not repeat the lines")
            try stopProvider(group)
        }
    }

    @Test("Two watchers both see a commit; the human-readable form names the identifiers")
    func twoWatchers() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)

            let json = try WatchProcess(group)
            defer { json.stop() }
            let text = try WatchProcess(group, arguments: ["watch"])
            defer { text.stop() }
            _ = try #require(json.waitUntilReady())
            _ = try #require(text.waitUntilReady())
            #expect(watcherFIFOs(group).count == 2)

            try host(["add", "--id", "t1", "--given-name", "One"], in: group)
            try host(["add", "--id", "t2", "--given-name", "Two"], in: group)
            try host(["signal", "--wait"], in: group)
            let line = try json.nextJSONLine()
            #expect(Set(line["updated"] as? [String] ?? []) == ["t1", "t2"], "\(line)")
            let human = try #require(text.stdout.nextLine())
            #expect(human.hasPrefix("commit "), "\(human)")
            #expect(human.contains("2 updated (t1, t2)"), "\(human)")
            #expect(human.contains("2 in the system store"), "\(human)")

            text.interrupt()
            #expect(watcherFIFOs(group).count == 1, "only the interrupted watcher's FIFO should go")
            json.interrupt()
            #expect(watcherFIFOs(group).isEmpty)
            try stopProvider(group)
        }
    }
}
