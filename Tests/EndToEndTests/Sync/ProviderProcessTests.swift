import Foundation
import Glibc
import TestSupport
import Testing

/// The provider executable's own lifecycle: foreground debugging, SIGTERM, idle exit, R7.
@Suite("End to end: the provider process")
struct ProviderProcessTests {
    /// Reads a pipe line by line with blocking reads (the provider's writes are the signal).
    final class Lines {
        private let handle: FileHandle
        private var buffer = Data()
        init(_ handle: FileHandle) { self.handle = handle }

        /// The next line containing `text`, or nil at end of file.
        func next(containing text: String) -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if line.contains(text) { return line }
                    continue
                }
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }
    }

    /// Starts the built provider `executable` on `group`'s App Group with `arguments`, in `environment`
    /// (the group's when nil), its stderr read line by line. The caller ends the process.
    static func startProvider(
        _ group: TemporaryAppGroup, _ arguments: [String], executable: String = "demo-provider",
        environment: [String: String]? = nil
    ) throws -> (Process, Lines) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path(executable))
        process.arguments = ["--app-group", group.path] + arguments
        process.environment = environment ?? group.environment
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        return (process, Lines(stderr.fileHandleForReading))
    }

    @Test("--foreground logs every request and observer call; SIGTERM invalidates and exits cleanly")
    func foregroundAndSigterm() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1"], in: group)
            try host(["add", "--given-name", "Fore", "--id", "fore"], in: group)
            let (process, lines) = try Self.startProvider(group, ["--foreground"])
            #expect(lines.next(containing: "serving domain 'defaultDomain'") != nil)
            // The host finds it listening and does not launch another.
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["systemCount"] as? Int == 1)
            #expect(lines.next(containing: "request: signal") != nil)
            #expect(lines.next(containing: "didEnumerate(1 item: fore \"Fore\")") != nil)
            #expect(lines.next(containing: "didFinishEnumeratingContent(upTo:") != nil)
            kill(process.processIdentifier, SIGTERM)
            #expect(lines.next(containing: "received signal \(SIGTERM)") != nil)
            #expect(lines.next(containing: "invalidating the enumerator and the extension") != nil)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(group.providerPID() == nil)
        }
    }

    @Test("an idle provider exits by itself after its idle timeout, and the next signal relaunches one")
    func idleExit() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Idle"], in: group)
            let (process, lines) = try Self.startProvider(group, ["--idle-timeout", "0.2"])
            #expect(lines.next(containing: "serving domain") != nil)
            #expect(lines.next(containing: "idle for 0.2 s; exiting") != nil)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 1)
            try stopProvider(group)
        }
    }

    @Test("a provider started for a disabled domain refuses to run the extension (R7)")
    func disabledDomainRefused() throws {
        try withTemporaryAppGroup { group in
            let result = try ProcessRunner.run(
                BuiltProducts.path("demo-provider"), ["--app-group", group.path], environment: group.environment)
            #expect(result.exitCode == 1)
            #expect(result.stderr.contains("is not enabled"))
            let usage = try ProcessRunner.run(
                BuiltProducts.path("demo-provider"), ["--bogus"], environment: group.environment)
            #expect(usage.exitCode == 2)
            #expect(usage.stderr.contains("unknown option '--bogus'"))
        }
    }
}
