import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, item 6: a request FIFO with mode 0666 (a copied or restored App Group) made every signal
/// fail, while `doctor` said "no problems" and `--repair` "nothing to repair".
@Suite("Reliability: every pipe a signal refuses, doctor reports and --repair fixes")
struct LoosePipeModeCLITests {
    @Test("A requests.fifo with mode 0666: signal refuses it, doctor names it, --repair sets 0600, signals work again")
    func looseRequestPipe() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            #expect(chmod(paths.requests, 0o666) == 0)

            let refused = try HostRunner.process.run(["signal", "--wait"], in: group)
            #expect(refused.exitCode == 1, "\(refused)")
            #expect(refused.stderr.contains("mode 666"), "\(refused)")
            #expect(refused.stderr.contains("doctor --repair"), "the refusal names no way out: \(refused)")

            let doctor = try HostRunner.process.run(["doctor"], in: group)
            #expect(doctor.exitCode == 1, "doctor saw nothing: \(doctor)")
            #expect(doctor.stdout.contains(paths.requests) || doctor.stderr.contains(paths.requests), "\(doctor)")

            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(repair.stdout.contains("set to mode 600: \(paths.requests)"), "\(repair)")
            var info = stat()
            #expect(lstat(paths.requests, &info) == 0 && info.st_mode & 0o777 == 0o600)

            try HostRunner.process.succeed(["add", "--id", "grace", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let system = try HostRunner.process.succeed(["system", "list", "--json"], in: group)
            #expect(system.contains("grace"), "\(system)")
        }
    }

    @Test("A reply FIFO with a loose mode is reported too (nobody holds it, so --repair removes it)")
    func looseReplyPipe() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            try SecureFile.ensureDirectory(paths.repliesDirectory)
            let pipe = paths.repliesDirectory + "/0A1B.fifo"
            #expect(mkfifo(pipe, 0o600) == 0 && chmod(pipe, 0o622) == 0)
            let doctor = try HostRunner.process.run(["doctor"], in: group)
            #expect(doctor.exitCode == 1)
            #expect((doctor.stdout + doctor.stderr).contains("mode 622"), "\(doctor)")
            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(repair.stdout.contains("removed stale pipe: \(pipe)"), "\(repair)")
        }
    }
}
