import CommandLineToolkit
import ContactsHostKit
import Foundation
import Glibc
import TestSupport
import Testing

@testable import OSLog

/// `contacts-host log`: the provider log's line parser, its filter, the one-shot mode in process,
/// and the follower across a rotation.
@Suite("contacts-host log: parsing, filtering and following the provider log")
struct LogCommandTests {
    /// A line as the `OSLog` shim writes it.
    private func loggerLine(_ subsystem: String, _ category: String, _ level: String, _ message: String) -> String {
        LogOutput.line(
            date: Date(timeIntervalSince1970: 1_764_000_000), subsystem: subsystem, category: category, level: level,
            message: message)
    }

    @Test("A line the shim writes splits into time, subsystem, category, level and message")
    func parsesLoggerLine() {
        let text = loggerLine("com.example.provider", "sync: pages", "notice", "sent 3 items: a, b [c]")
        let line = ProviderLogLine.parse(text)
        #expect(line.time == "2025-11-24T16:00:00.000Z")
        #expect(line.subsystem == "com.example.provider")
        #expect(line.category == "sync: pages")
        #expect(line.level == .default)
        #expect(line.message == "sent 3 items: a, b [c]")
        #expect(line.text == text)
        #expect(ProviderLogLine.parse(loggerLine("s", "c", "info", "")).message == "")
    }

    @Test(
        "Lines Logger did not write are whole messages without level",
        arguments: [
            "Fatal error: Unexpectedly found nil", "", "   indented", "2025-11-24T16:00:00.000Z no brackets",
            "2025-11-24T16:00:00.000Z [nocolon] info: x", "2025-11-24T16:00:00.000Z [s:c] shouting: x",
            "[s:c] info: no time",
        ])
    func parsesOtherLines(text: String) {
        let line = ProviderLogLine.parse(text)
        #expect(!line.isLoggerLine)
        #expect(line.subsystem == nil && line.category == nil && line.time == nil)
        #expect(line.message == text)
    }

    @Test("Every level name the shim writes maps to Apple's level")
    func levelNames() {
        let expected: [String: LogLevel] = [
            "trace": .debug, "debug": .debug, "info": .info, "notice": .default, "default": .default,
            "warning": .error, "error": .error, "critical": .fault, "fault": .fault, "type(0x7)": .default,
        ]
        for (written, level) in expected {
            #expect(ProviderLogLine.parse(loggerLine("s", "c", written, "m")).level == level, "\(written)")
        }
        // The shim's OSLogType names are the ones parsed (a renamed level would stop parsing).
        for type in [OSLogType.debug, .info, .default, .error, .fault] {
            #expect(LogLevel(written: type.name) != nil, "\(type.name)")
        }
        #expect(LogLevel.allCases.sorted() == [.debug, .info, .default, .error, .fault])
        #expect(LogLevel(option: "notice") == .default)
        #expect(LogLevel(option: "warning") == nil)
    }

    @Test("--level keeps that level and above, --subsystem and --category match exactly; other lines pass --level")
    func filter() {
        let info = ProviderLogLine.parse(loggerLine("com.a", "sync", "info", "i"))
        let warning = ProviderLogLine.parse(loggerLine("com.a", "ui", "warning", "w"))
        let other = ProviderLogLine.parse("Fatal error: boom")
        let errors = LogFilter(minimumLevel: .error)
        #expect(!errors.accepts(info))
        #expect(errors.accepts(warning))
        #expect(errors.accepts(other))
        #expect(LogFilter(minimumLevel: .info).accepts(info))
        #expect(LogFilter(subsystem: "com.a").accepts(info))
        #expect(!LogFilter(subsystem: "com.").accepts(info))
        #expect(!LogFilter(subsystem: "com.a").accepts(other))
        #expect(!LogFilter(category: "sync").accepts(warning))
        #expect(!LogFilter(category: "sync").accepts(other))
        #expect(LogFilter().accepts(other))
    }

    /// Writes `lines` (joined by newlines, plus `tail`) to the App Group's provider log at `name`.
    @discardableResult
    private func writeLog(_ group: TemporaryAppGroup, _ name: String, _ lines: [String], tail: String = "\n") throws
        -> String
    {
        let directory = group.path + "/run/defaultDomain"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try Data((lines.joined(separator: "\n") + tail).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Without --follow: the rotated generation then the log, filtered; --json has every key, null for other lines")
    func printsLogOnce() async throws {
        try await withTemporaryAppGroup { group in
            let older = loggerLine("com.a", "sync", "debug", "older")
            let kept = loggerLine("com.a", "sync", "error", "kept")
            let elsewhere = loggerLine("com.b", "sync", "fault", "elsewhere")
            try writeLog(group, "provider.log.1", [older])
            try writeLog(group, "provider.log", [kept, "Fatal error: boom", elsewhere, "unfinished"], tail: "")

            let all = await HostRunner.inProcess.succeed(["log"], in: group)
            #expect(
                all.split(separator: "\n").map(String.init) == [
                    older, kept, "Fatal error: boom", elsewhere, "unfinished",
                ])
            let filtered = await HostRunner.inProcess.succeed(
                ["log", "--subsystem", "com.a", "--level", "info"], in: group)
            #expect(filtered == kept)

            let json = await HostRunner.inProcess.succeed(["log", "--json", "--level", "error"], in: group)
            let objects = try json.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(objects.count == 4)
            #expect(objects[0]["subsystem"] as? String == "com.a")
            #expect(objects[0]["category"] as? String == "sync")
            #expect(objects[0]["level"] as? String == "error")
            #expect(objects[0]["message"] as? String == "kept")
            #expect(objects[0]["time"] as? String == "2025-11-24T16:00:00.000Z")
            #expect(objects[1]["message"] as? String == "Fatal error: boom")
            for key in ["time", "subsystem", "category", "level"] { #expect(objects[1][key] is NSNull, "\(key)") }
            #expect(objects[2]["level"] as? String == "fault")
        }
    }

    @Test("Without a log: nothing on stdout, a note on stderr, exit 0; a bad --level is a usage error")
    func noLogYet() async {
        await withTemporaryAppGroup { group in
            let empty = await HostRunner.inProcess.run(["log"], in: group)
            #expect(empty.exitCode == 0)
            #expect(empty.stdout.isEmpty)
            #expect(empty.stderr.contains("provider.log is empty or absent"), "\(empty.stderr)")
            let bad = await HostRunner.inProcess.run(["log", "--level", "loud"], in: group)
            #expect(bad.exitCode == ExitCode.usage)
            #expect(bad.stderr.contains("expects one of debug, info, default, error, fault or notice"))
        }
    }

    @Test("A flag's short name (log's -f) parses as the flag; other single-dash words stay unknown options")
    func shortFlag() async throws {
        let follow = Flag("--follow", short: "-f", help: "")
        let options = [follow.spec, Flag("--json", help: "").spec]
        let parsed = try parseArguments(["-f", "--json"], options: options, positional: .none)
        #expect(parsed.has(follow))
        #expect(throws: UsageError.self) { try parseArguments(["-j"], options: options, positional: .none) }
        #expect(await HostRunner.inProcess.run(["help", "log"]).stdout.contains("  --follow, -f "))
    }

    @Test("The follower prints what is there, then appended lines, across a rotation, until told to stop")
    func followsAcrossRotation() throws {
        // Synchronous: the test blocks on semaphores, which must not happen on the concurrency pool.
        try withTemporaryAppGroup { group in
            try writeLog(group, "provider.log.1", ["oldest"])
            let path = try writeLog(group, "provider.log", ["before"])
            let shared = FollowerOutput()
            let arrived = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? LogFollower(path: path, wakeInterval: 0.05).run(
                    emit: { line in
                        shared.append(line)
                        arrived.signal()
                    }, shouldStop: { shared.stopped })
                finished.signal()
            }
            /// Waits (bounded) for the follower to emit one more line.
            func next() -> Bool { arrived.wait(timeout: .now() + 30) == .success }
            #expect(next())
            #expect(next())
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data("appended\n".utf8))
            #expect(next())
            // The rotation ProviderLog does: rename, then the writer reopens a new file at the path.
            // A line written to the old file after the rename still arrives, before the new file's.
            #expect(rename(path, path + ".1") == 0)
            handle.write(Data("late in old\n".utf8))
            try handle.close()
            try Data("after rotation\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(next())
            #expect(next())
            shared.stop()
            #expect(finished.wait(timeout: .now() + 30) == .success, "the follower did not stop")
            #expect(shared.lines == ["oldest", "before", "appended", "late in old", "after rotation"])
        }
    }
}

/// What the follower's thread emitted, and the test's request that it stop.
private final class FollowerOutput: @unchecked Sendable {
    // Every field is read and written under `lock`.
    private let lock = NSLock()
    private var emitted: [String] = []
    private var stopRequested = false

    var lines: [String] { lock.withLock { emitted } }
    var stopped: Bool { lock.withLock { stopRequested } }
    func append(_ line: String) { lock.withLock { emitted.append(line) } }
    func stop() { lock.withLock { stopRequested = true } }
}
