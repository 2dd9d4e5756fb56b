import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 24: a developer debugs their enumerator with a real debugger (gdb or lldb, Debian's packages): the
/// provider they start under it serves the sync, a breakpoint held past the framework's time limit
/// does not fail the sync, and a provider that is merely slow still does.
///
/// The holds below are the thing tested (a developer looking around at a breakpoint), not waits for
/// something to happen: every wait for an event reads the line the debugger or a process prints.
@Suite("End to end: debugging a provider under gdb and lldb")
struct DebuggerTests {
    /// The line of `DemoEnumerator.swift` that starts the body of `function` (its `do {`).
    private static func breakpointLine(in function: String) throws -> Int {
        let path = PythonTestTools.repositoryRoot + "/Examples/ExampleProviders/DemoEnumerator.swift"
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("func \(function)(") })
        let body = try #require(lines[start...].firstIndex { $0.contains("do {") })
        return body + 1
    }

    /// How long a developer stays at each breakpoint: past the default page limit of 10 s (R41).
    private static let hold = 15.0

    /// `signal --wait --json --trace` on its own thread: it blocks while the provider is at a breakpoint.
    private static func signalInBackground(_ group: TemporaryAppGroup) -> BackgroundCommand<ProcessResult> {
        BackgroundCommand { try HostRunner.process.run(["signal", "--wait", "--json", "--trace"], in: group) }
    }

    private static func report(_ result: ProcessResult?, _ debuggerSession: DebuggerSession) throws -> [String: Any] {
        let finished = try #require(
            result, "the sync did not finish after the breakpoint was left\n\(debuggerSession.transcript)")
        #expect(finished.exitCode == 0, "\(finished)")
        return try jsonObject(finished)
    }

    @Test(
        "A provider run under the debugger in the foreground serves the signal; breakpoints held 15 s in enumerateContent and enumerateChanges do not fail the sync",
        arguments: Debugger.allCases)
    func breakpointsHeldPastTheLimit(debugger: Debugger) throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada", "--family-name", "Lovelace", "--id", "ada"], in: group)
            let debuggerSession = try DebuggerSession(
                debugger, executable: BuiltProducts.path("demo-provider"),
                arguments: ["--app-group", group.path, "--foreground"],
                environment: group.environment)
            defer { debuggerSession.end(inferior: group.providerPID()) }
            let contentHit = debuggerSession.setBreakpoint(
                file: "DemoEnumerator.swift", line: try Self.breakpointLine(in: "enumerateContent"))
            let changesHit = debuggerSession.setBreakpoint(
                file: "DemoEnumerator.swift", line: try Self.breakpointLine(in: "enumerateChanges"))
            debuggerSession.send("run")
            try #require(debuggerSession.next(containing: "serving domain") != nil, "\(debuggerSession.transcript)")
            // The process the debugger started is the one serving: no re-exec, no second provider.
            let pid = try #require(group.providerPID())
            #expect(
                ProcStatus.isDescendant(pid, of: debuggerSession.pid),
                "the serving provider is not the debugger's inferior")
            let tracer = try #require(DebuggerPresence.tracerPID(of: pid))
            #expect(tracer != 0 && ProcStatus.isDescendant(tracer, of: debuggerSession.pid), "traced by \(tracer)")

            let content = Self.signalInBackground(group)
            try #require(debuggerSession.next(containing: contentHit) != nil, "\(debuggerSession.transcript)")
            Thread.sleep(forTimeInterval: Self.hold)
            debuggerSession.send("continue")
            let first = try Self.report(try content.wait(seconds: 120), debuggerSession)
            #expect(first["error"] == nil)
            #expect(first["updated"] as? Int == 1)
            let firstTrace = (first["transcript"] as? [String] ?? []).joined(separator: "\n")
            #expect(firstTrace.contains("stopped by a debugger, not counted against the limit"), "\(firstTrace)")

            try host(["add", "--given-name", "Grace", "--family-name", "Hopper", "--id", "grace"], in: group)
            let changes = Self.signalInBackground(group)
            try #require(debuggerSession.next(containing: changesHit) != nil, "\(debuggerSession.transcript)")
            Thread.sleep(forTimeInterval: Self.hold)
            debuggerSession.send("continue")
            let second = try Self.report(try changes.wait(seconds: 120), debuggerSession)
            #expect(second["error"] == nil)
            #expect(second["updated"] as? Int == 1)
            #expect(group.providerPID() == pid)
        }
    }

    @Test("A provider that is merely slow still fails with R41, also in the foreground with no debugger")
    func slowProviderStillTimesOut() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("bad-provider"), "--page-timeout", "1"], in: group)
            try host(["add", "--given-name", "Slow", "--id", "slow"], in: group)
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = "slow-page"
            environment["BAD_PROVIDER_DELAY_SECONDS"] = "3"
            let (process, lines) = try ProviderProcessTests.startProvider(
                group, ["--foreground"], executable: "bad-provider", environment: environment)
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            #expect(lines.next(containing: "serving domain") != nil)
            let result = try host(["signal", "--wait", "--json"], in: group, expect: 1)
            let report = try jsonObject(result)
            let error = try #require(report["error"] as? [String: Any], "\(result)")
            #expect(error["code"] as? String == "enumerationTimeout")
            #expect((error["message"] as? String ?? "").contains("R41"))
        }
    }

    @Test(
        "signal --wait-for-debugger launches a provider that waits; attached with '-p' it serves, a 4 s stop past a 2 s limit included",
        arguments: Debugger.allCases)
    func waitForDebugger(debugger: Debugger) throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("demo-provider"), "--page-timeout", "2"], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            let hostProcess = Process()
            hostProcess.executableURL = URL(fileURLWithPath: BuiltProducts.path("contacts-host"))
            hostProcess.arguments = ["signal", "--wait-for-debugger", "--json"]
            hostProcess.environment = group.environment
            let hostOutput = Pipe()
            let hostErrors = Pipe()
            hostProcess.standardOutput = hostOutput
            hostProcess.standardError = hostErrors
            try ProcessRunner.runUnblocked(hostProcess)
            var debuggerSession: DebuggerSession?
            defer {
                if hostProcess.isRunning { kill(hostProcess.processIdentifier, SIGKILL) }
                hostProcess.waitUntilExit()
                debuggerSession?.end(inferior: group.providerPID())
            }
            let lines = ProviderProcessTests.Lines(hostErrors.fileHandleForReading)
            let waiting = try #require(lines.next(containing: "is waiting for a debugger"))
            let pid = try #require(group.providerPID())
            #expect(waiting.contains("gdb -p \(pid)") && waiting.contains("lldb-16 -p \(pid)"), "\(waiting)")
            #expect(DebuggerPresence.tracerPID(of: pid) == 0)
            let session = try DebuggerSession(debugger, attachingTo: pid, environment: group.environment)
            debuggerSession = session
            let hit = session.setBreakpoint(
                file: "DemoEnumerator.swift", line: try Self.breakpointLine(in: "enumerateContent"))
            session.send("continue")
            try #require(session.next(containing: hit) != nil, "\(session.transcript)")
            Thread.sleep(forTimeInterval: 4)
            session.send("continue")
            let report = try JSONSerialization.jsonObject(with: hostOutput.fileHandleForReading.readDataToEndOfFile())
            hostProcess.waitUntilExit()
            #expect(hostProcess.terminationStatus == 0)
            let object = try #require(report as? [String: Any])
            #expect(object["error"] == nil, "\(object)")
            #expect(object["systemCount"] as? Int == 1)
        }
    }
}
