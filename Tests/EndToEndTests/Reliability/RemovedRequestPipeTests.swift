import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, item 12: a removed `requests.fifo` under a running provider wedged the domain: the old
/// provider held the lock while reading an inode no path led to, each launched provider refused, and
/// every signal failed.
@Suite("Reliability: a removed request pipe never wedges the domain")
struct RemovedRequestPipeTests {
    @Test("The provider notices its pipe is gone and leaves; the next signal launches one and syncs")
    func providerLeavesAndNextSignalSyncs() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let old = try #require(group.providerPID())
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            #expect(unlink(paths.requests) == 0)

            try HostRunner.process.succeed(["add", "--id", "grace", "--given-name", "Grace"], in: group)
            let result = try HostRunner.process.run(["signal", "--wait", "--json", "--timeout", "20"], in: group)
            #expect(result.exitCode == 0, "\(result)")
            #expect(ProcessExit.waitUntilGone(old), "the provider reading the removed pipe still runs")
            let new = try #require(group.providerPID())
            #expect(new != old)
            let system = try HostRunner.process.succeed(["system", "list", "--json"], in: group)
            #expect(system.contains("grace"), "\(system)")
            let log = try String(contentsOfFile: paths.providerLog, encoding: .utf8)
            #expect(log.contains("was removed or replaced"), "\(log.suffix(2000))")
        }
    }

    @Test("A provider that holds the domain but cannot notice (stopped): the signal says so at once, naming its pid")
    func unreachableHolderIsNamed() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let old = try #require(group.providerPID())
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            #expect(kill(old, SIGSTOP) == 0)
            defer { kill(old, SIGCONT) }
            #expect(unlink(paths.requests) == 0)

            let result = try HostRunner.process.run(["signal", "--wait", "--timeout", "30"], in: group)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("the provider (pid \(old)) holds the domain but does not read"), "\(result)")
            #expect(result.stderr.contains("kill \(old)"), "\(result)")

            // Once it runs again it notices, leaves, and the next signal is served.
            #expect(kill(old, SIGCONT) == 0)
            #expect(ProcessExit.waitUntilGone(old), "the provider did not leave after SIGCONT")
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
        }
    }
}
