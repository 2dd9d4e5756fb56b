import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31 items 11 and 12: the process limit is an error, not a hang; nothing a provider leaves
/// in the App Group grows without bound.
@Suite("Reliability: resource limits and bounded growth")
struct ResourceBoundsTests {
    /// The bytes of every regular file under `path`.
    static func size(of path: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        for case let name as String in walker {
            var info = stat()
            if lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG { total += Int(info.st_size) }
        }
        return total
    }

    static func traceFiles(_ group: TemporaryAppGroup) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: group.path + "/run/defaultDomain/traces")) ?? []
    }

    static func openRequests(_ group: TemporaryAppGroup) throws -> Int32 {
        let fifo = group.path + "/run/defaultDomain/requests.fifo"
        let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0, "open \(fifo): errno \(errno)")
        return fd
    }

    /// Runs `arguments` under `RLIMIT_NPROC` 1: as root (which the limit does not bind) the command
    /// runs as `nobody` (setpriv) with the limit set after the switch (prlimit), so the kernel
    /// refuses its first thread. `timeout` turns a hang into exit 137.
    static func atProcessLimit(_ arguments: [String], group: TemporaryAppGroup) throws -> ProcessResult {
        // SIGKILL: a process stuck retrying thread creation has every other signal blocked.
        var command = ["/usr/bin/timeout", "-s", "KILL", "60"]
        if getuid() == 0 {
            try #require(chown(group.path, 65534, 65534) == 0, "chown \(group.path): errno \(errno)")
            command += ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        command += ["/usr/bin/prlimit", "--nproc=1:1", "--"] + arguments
        var environment = group.environment
        environment["HOME"] = group.path
        return try ProcessRunner.run(command[0], Array(command.dropFirst()), environment: environment)
    }

    @Test("at the process limit contacts-host and a provider fail at once with a message naming the limit")
    func processLimitFailsClearly() throws {
        try withTemporaryAppGroup { group in
            for arguments in [
                [BuiltProducts.path("contacts-host"), "--version"], [BuiltProducts.path("contacts-host"), "list"],
                [BuiltProducts.path("demo-provider"), "--app-group", group.path],
            ] {
                let result = try Self.atProcessLimit(arguments, group: group)
                #expect(result.exitCode == 1, "\(arguments.last!) at the process limit: \(result)")
                #expect(result.stderr.contains("process limit is reached (RLIMIT_NPROC 1"), "\(result)")
            }
        }
    }

    @Test("a flood of probe doorbells nobody waits for leaves no files in traces/")
    func probeFlood() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--idle-timeout", "600"], in: group)
            try host(["add", "--given-name", "Probe", "--id", "probe-1"], in: group)
            try host(["signal", "--wait"], in: group)
            let fd = try Self.openRequests(group)
            defer { close(fd) }
            let count = TestScale.count(2_000)
            for _ in 0..<count {
                let probe = ProbeRequest(kind: .content, position: .initial, size: 10)
                let line = try Doorbell(kind: .probe, id: UUID().uuidString, reply: true, probe: probe).line()
                try ReliabilityFIFOFloodTests.writeAll(fd, Array(line))
            }
            // Two answered signals: the second batch starts only after the first's probes ran.
            _ = try ReliabilityFIFOFloodTests.ringAndWait(group, requests: fd)
            _ = try ReliabilityFIFOFloodTests.ringAndWait(group, requests: fd)
            #expect(Self.traceFiles(group).count <= ProviderLog.traceFileLimit, "\(Self.traceFiles(group).count) files")
            try stopProvider(group)
        }
    }

    @Test("traces that nobody collects are capped; the oldest go first")
    func traceCap() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--idle-timeout", "600"], in: group)
            try host(["signal", "--wait"], in: group)
            let fd = try Self.openRequests(group)
            defer { close(fd) }
            var ids: [String] = []
            for _ in 0..<(ProviderLog.traceFileLimit + 20) {
                let id = UUID().uuidString
                ids.append(id)
                // A traced signal without a reply (its transcript waits in traces/), then an answered one.
                try ReliabilityFIFOFloodTests.writeAll(
                    fd, Array(#"{"v":1,"kind":"signal","id":"\#(id)","trace":true}"#.utf8) + [0x0A])
                _ = try ReliabilityFIFOFloodTests.ringAndWait(group, requests: fd)
            }
            let files = Set(Self.traceFiles(group))
            #expect(files.count == ProviderLog.traceFileLimit, "\(files.count) trace files")
            #expect(files.contains(ids.last! + ".log"), "the newest transcript is kept")
            #expect(!files.contains(ids.first! + ".log"), "the oldest transcript is removed")
            try stopProvider(group)
        }
    }

    @Test("a noisy provider: provider.log is rotated at its limit, one generation kept, the App Group stays small")
    func noisyProviderLogIsBounded() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--idle-timeout", "600"], in: group)
            try host(["signal", "--wait"], in: group)
            let pid = try #require(group.providerPID())
            let fd = try Self.openRequests(group)
            defer { close(fd) }
            // Each line makes the provider log one "ignored a malformed request" line of a few hundred
            // bytes: together about three times the limit.
            let noise = Array("noise-".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 200) + [0x0A]
            var logged = 0
            while logged < 3 * ProviderLog.logLimitBytes {
                var burst: [UInt8] = []
                for _ in 0..<100 { burst += noise }
                try ReliabilityFIFOFloodTests.writeAll(fd, burst)
                logged += 100 * 300
            }
            _ = try ReliabilityFIFOFloodTests.ringAndWait(group, requests: fd)
            #expect(group.providerPID() == pid, "the same provider kept serving")
            let log = group.path + "/run/defaultDomain/provider.log"
            let current = CLIHarness.info(log).map { Int($0.st_size) } ?? -1
            let previous = CLIHarness.info(log + ".1").map { Int($0.st_size) } ?? -1
            #expect(previous > ProviderLog.logLimitBytes / 2, "provider.log was never rotated (\(previous))")
            #expect(current <= ProviderLog.logLimitBytes + 4096, "provider.log is \(current) bytes")
            #expect(!FileManager.default.fileExists(atPath: log + ".2"), "one older generation only")
            let total = Self.size(of: group.path)
            #expect(total < 2 * ProviderLog.logLimitBytes + 512 * 1024, "the App Group holds \(total) bytes")
            try stopProvider(group)
        }
    }

    @Test("a process the provider started (setsid, its own output) stays within the log's bound too")
    func childOfProviderIsBounded() throws {
        try withTemporaryAppGroup { group in
            // The registered executable is a script, as real launch scripts are: it starts a helper that
            // leaves the process group and writes 6 MB, paced (~1 MB/s), then runs the provider.
            let script = group.path + "/run-provider.sh"
            let pidFile = group.path + "/helper.pid"
            let helper =
                "i=0; while [ $i -lt 60 ]; do yes helper-output-line | head -c 100000; i=$((i+1)); sleep 0.1; done"
            let text = """
                #!/bin/sh
                setsid sh -c '\(helper)' &
                echo $! > \(pidFile)
                exec '\(BuiltProducts.path("demo-provider"))' "$@"

                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: script))
            #expect(chmod(script, 0o700) == 0)
            try host(["enable", "--extension", script, "--idle-timeout", "600"], in: group)
            try host(["signal", "--wait"], in: group)
            // Written by the script before it ran the provider, so there by the time the sync answered.
            let helperPID = try #require(
                pid_t(
                    try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                ))
            #expect(ProcessExit.waitUntilGone(helperPID, seconds: 60), "the helper never finished")
            // The provider's once-a-second rotation sees the last of it.
            try host(["signal", "--wait"], in: group)
            let log = group.path + "/run/defaultDomain/provider.log"
            let current = CLIHarness.info(log).map { Int($0.st_size) } ?? -1
            let previous = CLIHarness.info(log + ".1").map { Int($0.st_size) } ?? -1
            #expect(previous > 0, "provider.log was never rotated")
            // At most what arrives between two of the provider's checks (once a second, ~1 MB here) past each.
            let bound = ProviderLog.logLimitBytes + 1_500_000
            #expect(current <= bound && previous <= bound, "provider.log \(current), provider.log.1 \(previous) bytes")
            try stopProvider(group)
        }
    }
}
