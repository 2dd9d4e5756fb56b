import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31 items 9 and 10: a provider that stops answering is ended, a provider that crashes at
/// start is not relaunched in a tight loop, and nothing a command or the kit starts outlives it.
@Suite("Reliability: provider processes are ended, and nothing is left behind")
struct ProviderLifecycleTests {
    /// Writes an executable shell script `name` into `group` and returns its path.
    static func script(_ name: String, in group: TemporaryAppGroup, _ body: String) throws -> String {
        let path = group.path + "/" + name
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o700)
        return path
    }

    /// A provider wrapper that forks a child ignoring SIGTERM, marked with `marker`, then runs the demo provider.
    static func forkingProvider(in group: TemporaryAppGroup, marker: String) throws -> String {
        try script(
            "forking-provider", in: group,
            """
            trap '' TERM
            export LEAK_MARKER=\(marker)
            sleep 3600 &
            exec \(BuiltProducts.path("demo-provider")) "$@"
            """)
    }

    /// The running processes whose environment holds `LEAK_MARKER=marker`.
    static func marked(_ marker: String) -> [pid_t] {
        let needle = Array("LEAK_MARKER=\(marker)".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let environ = FileManager.default.contents(atPath: "/proc/\(name)/environ")
            else { return nil }
            let found = environ.split(separator: 0).contains { Array($0) == needle }
            return found && ProcessReaper.isRunning(pid) ? pid : nil
        }
    }

    @Test(
        "disable ends a provider that stops answering (SIGSTOP): SIGTERM to its group, then SIGKILL; enable then works")
    func disableEndsUnresponsiveProvider() throws {
        try withTemporaryAppGroup { group in
            try host(
                ["enable", "--idle-timeout", "600", "--invalidate-timeout", "1", "--page-timeout", "1"], in: group)
            try host(["add", "--given-name", "Stuck", "--id", "stuck-1"], in: group)
            try host(["signal", "--wait"], in: group)
            let pid = try #require(group.providerPID())
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            let clock = ContinuousClock()
            let start = clock.now
            let result = try host(["disable"], in: group)
            #expect(clock.now - start < .seconds(20), "disable took \(clock.now - start)")
            #expect(result.stderr.contains("pid \(pid)") && result.stderr.contains("did not answer the invalidate"))
            #expect(result.stderr.contains("SIGTERM"), "\(result)")
            #expect(ProcessExit.isGone(pid), "the provider still runs after disable")
            #expect(group.providerPID() == nil)
            try host(["enable"], in: group)
            try host(["signal", "--wait"], in: group)
            let next = try #require(group.providerPID())
            #expect(next != pid)
            try stopProvider(group)
        }
    }

    @Test("disable ends what the provider forked, even a child that ignores SIGTERM (SIGKILL after the grace period)")
    func disableEndsForkedChildren() throws {
        try withTemporaryAppGroup { group in
            let marker = UUID().uuidString
            let provider = try Self.forkingProvider(in: group, marker: marker)
            try host(["enable", "--extension", provider, "--idle-timeout", "600"], in: group)
            try host(["signal", "--wait"], in: group)
            let pid = try #require(group.providerPID())
            let children = Self.marked(marker).filter { $0 != pid }
            #expect(!children.isEmpty, "the wrapper's child should be running")
            let result = try host(["disable"], in: group)
            #expect(result.stderr.contains("SIGKILL"), "\(result)")
            #expect(ProcessExit.isGone(pid))
            #expect(Self.marked(marker).isEmpty, "left behind: \(Self.marked(marker))")
            #expect(!group.cleanUp(), "nothing was left for the test's cleanup to stop")
        }
    }

    @Test("conformance against a provider that forks a SIGTERM-ignoring child leaves no process behind")
    func kitLeavesNothingBehind() throws {
        try withTemporaryAppGroup { group in
            let marker = UUID().uuidString
            let provider = try Self.forkingProvider(in: group, marker: marker)
            let result = try HostRunner.process.run(
                ["conformance", "--extension", provider, "--seed", "3", "--operations", "20"], in: group)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.contains("0 failed"), "\(result)")
            let left = Self.marked(marker)
            for pid in left { kill(pid, SIGKILL) }
            #expect(left.isEmpty, "\(left.count) processes of the run were still running after conformance returned")
        }
    }

    @Test(
        "a provider that crashes at start: relaunched twice, then refused with a back-off naming the log; enable clears it"
    )
    func crashAtStartBacksOff() throws {
        try withTemporaryAppGroup { group in
            let counter = group.path + "/launches"
            let provider = try Self.script("crashing-provider", in: group, "echo launched >> \(counter)\nexit 70")
            try host(["enable", "--extension", provider], in: group)
            func launches() -> Int { CLIHarness.lineCount(counter) }
            for attempt in 1...LaunchBackoff.freeAttempts {
                let result = try host(["signal", "--wait", "--timeout", "20"], in: group, expect: 1)
                #expect(result.stderr.contains("exited before answering"), "\(result)")
                #expect(launches() == attempt)
            }
            // The third consecutive failure is launched too; from then on each waits its turn.
            try host(["signal", "--wait", "--timeout", "20"], in: group, expect: 1)
            #expect(launches() == LaunchBackoff.freeAttempts + 1)
            let refused = try host(["signal", "--wait", "--timeout", "20"], in: group, expect: 1)
            #expect(refused.stderr.contains("failed to start 3 times in a row"), "\(refused)")
            #expect(refused.stderr.contains("provider.log") && refused.stderr.contains("next launch is allowed in"))
            #expect(launches() == LaunchBackoff.freeAttempts + 1, "no launch while backing off")
            // enable (any configuration change) allows a launch at once.
            try host(["enable", "--extension", provider], in: group)
            try host(["signal", "--wait", "--timeout", "20"], in: group, expect: 1)
            #expect(launches() == LaunchBackoff.freeAttempts + 2)
            // A provider that starts clears the count.
            try host(["enable", "--extension", BuiltProducts.path("demo-provider")], in: group)
            try host(["signal", "--wait"], in: group)
            #expect(!FileManager.default.fileExists(atPath: group.path + "/run/defaultDomain/launch-attempts.json"))
            try stopProvider(group)
        }
    }

    @Test(
        "a launch record the host writes after the provider started (a loaded machine) is removed at the first doorbell"
    )
    func lateLaunchRecordIsForgotten() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("demo-provider")], in: group)
            let (process, lines) = try ProviderProcessTests.startProvider(group, ["--foreground"])
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            #expect(lines.next(containing: "serving domain") != nil)
            // The order the CI run met: the provider started (and removed the record), then the
            // launching host's write of the record with the launched pid landed.
            let record = group.path + "/run/defaultDomain/launch-attempts.json"
            let late =
                #"{"boot":"x","executable":"x","failures":1,"lastAttempt":0,"lastPID":\#(process.processIdentifier)}"#
            try Data(late.utf8).write(to: URL(fileURLWithPath: record))
            try host(["signal", "--wait"], in: group)
            #expect(
                !FileManager.default.fileExists(atPath: record), "a provider that serves still counts as a failed start"
            )
        }
    }

    @Test("the back-off delays are bounded: free at first, then doubling, never above the maximum")
    func backoffIsBounded() {
        #expect((0...LaunchBackoff.freeAttempts).allSatisfy { LaunchBackoff.delay(afterFailures: $0) == 0 })
        #expect(LaunchBackoff.delay(afterFailures: LaunchBackoff.freeAttempts + 1) == LaunchBackoff.firstDelay)
        #expect(LaunchBackoff.delay(afterFailures: LaunchBackoff.freeAttempts + 2) == 2 * LaunchBackoff.firstDelay)
        #expect(LaunchBackoff.delay(afterFailures: 1_000) == LaunchBackoff.maximumDelay)
    }
}
