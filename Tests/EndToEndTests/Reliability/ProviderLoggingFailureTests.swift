import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 8: a provider that cannot write its log keeps serving (it died with SIGILL), and a
/// full disk reaches the host as "No space left on device" in the sync report.
@Suite("Reliability: logging never stops the provider")
struct ProviderLoggingFailureTests {
    @Test("demo-provider --foreground 2>/dev/full serves a sync and exits 0 on SIGTERM")
    func logToFullDevice() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Full", "--id", "full"], in: group)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("demo-provider"))
            process.arguments = ["--app-group", group.path, "--foreground"]
            var environment = group.environment
            environment["OSLOG_DISABLE"] = nil  // the example's own Logger lines go to /dev/full too
            process.environment = environment
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            process.standardError = full
            process.standardOutput = full
            try ProcessRunner.runUnblocked(process)
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            // The foreground provider takes the provider lock once it serves; wait for that (bounded).
            let deadline = Date().addingTimeInterval(20)
            while group.providerPID() != process.processIdentifier, process.isRunning, Date() < deadline {
                usleep(10_000)
            }
            #expect(group.providerPID() == process.processIdentifier, "the foreground provider never started serving")
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["systemCount"] as? Int == 1)
            // The sync was served by the foreground provider, not by one the host had to launch.
            #expect(process.isRunning)
            #expect(group.providerPID() == process.processIdentifier)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
            #expect(process.terminationStatus == 0)
        }
    }

    @Test("a full disk: the sync fails with 'No space left on device' in the report, the provider survives")
    func fullDiskReachesTheHost() throws {
        try withTemporaryAppGroup(onScratchFileSystemOf: 1 << 20) { group, disk in
            try host(["enable"], in: group)
            try host(["signal", "--wait"], in: group)  // creates the system store and every run file
            try stopProvider(group)
            // Enough changes that their batch cannot fit in the slack of the journal's last page.
            let file = try makeImportFile(group, count: 60)
            try host(["import", file], in: group)
            unlink(file)
            // The log gets no page it could write into without allocating.
            truncate(group.path + "/run/defaultDomain/provider.log", 0)
            try disk.fill()

            let result = try host(["signal", "--wait", "--json"], in: group, expect: 1)
            let report = try jsonObject(result)
            let error = try #require(report["error"] as? [String: Any], "\(result)")
            let message = try #require(error["message"] as? String)
            #expect(message.contains("No space left on device"), "\(result)")
            #expect(result.stderr.contains("No space left on device"), "\(result)")
            #expect(!result.stderr.contains("exited before answering"), "\(result)")

            // With space again the same provider (or a relaunched one) completes the sync; nothing was lost.
            disk.unfill()
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 60)
            try stopProvider(group)
        }
    }
}
