import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, items 10 and 11: a pipe's staleness is decided by whether anyone holds it — never by its
/// age alone, never by a probe a live reader sees, and a pipe that is being made is never stale.
@Suite("Reliability: a pipe is stale only when nobody holds it")
struct HeldPipeStalenessTests {
    /// A reply FIFO in `directory` held for reading by this process, as a waiting host holds it, with
    /// its modification time `age` seconds in the past (a wall clock that far ahead).
    private static func heldPipe(in directory: String, age: Int) throws -> (path: String, fd: Int32) {
        let path = directory + "/" + UUID().uuidString + ".fifo"
        let fd = try HeldPipe.createHeld(at: path)
        var times = [timespec(tv_sec: time(nil) - age, tv_nsec: 0), timespec(tv_sec: time(nil) - age, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return (path, fd)
    }

    /// Whether the read end saw a hang-up (a writer opened and closed the pipe).
    private static func sawHangUp(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP) != 0
    }

    @Test("A provider starting beside a waiting host's reply pipe two minutes 'old' neither removes nor probes it")
    func providerStartLeavesHeldPipe() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            let (held, fd) = try Self.heldPipe(in: paths.repliesDirectory, age: 120)
            defer { close(fd) }
            let abandoned = paths.repliesDirectory + "/" + UUID().uuidString + ".fifo"
            #expect(mkfifo(abandoned, 0o600) == 0)
            var times = [timespec(tv_sec: time(nil) - 120, tv_nsec: 0), timespec(tv_sec: time(nil) - 120, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, abandoned, &times, 0) == 0)

            try HostRunner.process.succeed(["signal", "--wait"], in: group)  // launches a provider: its start-up sweep
            #expect(FileManager.default.fileExists(atPath: held), "a held reply pipe was removed")
            #expect(!Self.sawHangUp(fd), "the sweep opened and closed a live host's pipe (a hang-up for the host)")
            #expect(!FileManager.default.fileExists(atPath: abandoned), "a pipe nobody holds was kept")
        }
    }

    @Test("doctor --repair keeps a pipe being made (a live writer's temporary name) and a held one; removes the rest")
    func doctorKeepsYoungAndHeldPipes() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            let directory = paths.repliesDirectory
            // A host between making its pipe and naming it: this process is its live writer.
            let beingMade =
                directory + "/." + UUID().uuidString + ".fifo" + TemporaryName.marker
                + TemporaryName.writerTag + "-1a2b"
            #expect(mkfifo(beingMade, 0o600) == 0)
            let (held, fd) = try Self.heldPipe(in: directory, age: 0)
            defer { close(fd) }
            let unheld = directory + "/" + UUID().uuidString + ".fifo"
            #expect(mkfifo(unheld, 0o600) == 0)
            let deadWriter =
                directory + "/." + UUID().uuidString + ".fifo" + TemporaryName.marker + "2147483646-b"
                + TemporaryName.currentBoot + "-1a2b"
            #expect(mkfifo(deadWriter, 0o600) == 0)

            let check = try HostRunner.process.run(["doctor"], in: group)
            let reported = check.stdout + check.stderr
            #expect(!reported.contains(beingMade) && !reported.contains(held), "\(check)")
            #expect(reported.contains(unheld) && reported.contains(deadWriter), "\(check)")

            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(FileManager.default.fileExists(atPath: beingMade), "a pipe being made was removed")
            #expect(FileManager.default.fileExists(atPath: held), "a held pipe was removed")
            #expect(!Self.sawHangUp(fd))
            #expect(!FileManager.default.fileExists(atPath: unheld))
            #expect(!FileManager.default.fileExists(atPath: deadWriter))
        }
    }

    @Test("A host's reply pipe is opened under its temporary name before it is linked to its own")
    func hostNamesItsPipeOnlyOnceHeld() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let log = group.path + "/strace.log"
            let result = try ProcessRunner.run(
                try StraceTool.path(),
                [
                    "-f", "-qq", "-o", log, "-e", "trace=mknodat,openat,link,linkat",
                    BuiltProducts.path("contacts-host"), "signal", "--wait",
                ], environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let made = try #require(lines.firstIndex { $0.contains("mknodat(") && $0.contains("/replies/.") })
            let opened = try #require(lines.firstIndex { $0.contains("openat(") && $0.contains("/replies/.") })
            let named = try #require(lines.firstIndex { $0.contains("link") && $0.contains("/replies/") })
            #expect(made < opened && opened < named, "\(lines[made])\n\(lines[opened])\n\(lines[named])")
            #expect(
                !lines[made...named].contains {
                    $0.contains("openat(") && $0.range(of: #"/replies/[^.]"#, options: .regularExpression) != nil
                })
        }
    }
}
