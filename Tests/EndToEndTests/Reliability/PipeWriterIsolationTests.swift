import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31 items 7 and 13: what another writer puts into a FIFO must not cost a host its request
/// or hand it someone else's answer.
@Suite("Reliability: one writer's bytes cost another writer nothing")
struct PipeWriterIsolationTests {
    /// Waits (bounded) for a reply FIFO to appear in `directory`; the waiting host makes it before it
    /// rings, and nothing signals its creation, so the directory is looked at every few milliseconds.
    static func awaitReplyPipe(in directory: String, seconds: Double = 30) throws -> String {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(seconds) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if let name = names.first(where: { $0.hasSuffix(".fifo") }) { return directory + "/" + name }
            usleep(2_000)
        }
        throw POSIXError(.ETIMEDOUT)
    }

    @Test("a half-written doorbell (no newline) before a real signal --wait: the signal is answered at once")
    func halfDoorbell() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--idle-timeout", "600"], in: group)
            try host(["add", "--given-name", "Half", "--id", "half-1"], in: group)
            try host(["signal", "--wait"], in: group)
            let pid = try #require(group.providerPID(), "signal --wait should have launched the provider")
            let fifo = group.path + "/run/defaultDomain/requests.fifo"
            let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            try #require(fd >= 0, "open \(fifo): errno \(errno)")
            defer { close(fd) }
            // A writer that stopped half-way through its doorbell: the bytes stay in the provider's buffer.
            let half = Array(#"{"v":1,"kind":"signal","id":"6B1C5F6E-0000"#.utf8)
            #expect(half.withUnsafeBytes { write(fd, $0.baseAddress, half.count) } == half.count)

            try host(["add", "--given-name", "After", "--id", "half-2"], in: group)
            let clock = ContinuousClock()
            let start = clock.now
            let result = try host(["signal", "--wait", "--timeout", "30"], in: group)
            let elapsed = clock.now - start
            #expect(elapsed < .seconds(10), "the signal waited \(elapsed): its doorbell was lost")
            #expect(result.stdout.contains("updated"), "\(result)")
            #expect(group.providerPID() == pid, "the same provider answers")
            try expectSystemMatchesApp(group, count: 2)
            let log = try String(contentsOfFile: group.path + "/run/defaultDomain/provider.log", encoding: .utf8)
            #expect(log.contains("of an unfinished request before a doorbell"), "the dropped bytes are logged")
            try stopProvider(group)
        }
    }

    @Test("a forged reply for another request id in the waiting host's reply FIFO is skipped; the real one is taken")
    func forgedReply() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--idle-timeout", "600"], in: group)
            try host(["add", "--given-name", "Real", "--id", "real-1"], in: group)
            try host(["signal", "--wait"], in: group)
            let pid = try #require(group.providerPID(), "signal --wait should have launched the provider")
            // Stopped, the provider cannot answer before the forged line is in the pipe.
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            let out = group.path + "/waiter.out"
            let err = group.path + "/waiter.err"
            let waiter = try SpawnedProcess(
                [BuiltProducts.path("contacts-host"), "signal", "--wait", "--json", "--timeout", "60"],
                environment: group.environment, stdout: out, stderr: err)
            defer { waiter.kill() }
            let replyPipe = try Self.awaitReplyPipe(in: group.path + "/run/defaultDomain/replies")
            var forger: Int32 = -1
            let clock = ContinuousClock()
            let start = clock.now
            // The host opens its reply FIFO for reading right after making it (ENXIO until then).
            while forger < 0, clock.now - start < .seconds(30) {
                forger = open(replyPipe, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if forger < 0 { usleep(1_000) }
            }
            try #require(forger >= 0, "open \(replyPipe): errno \(errno)")
            // Held open until the host is done, so the forger's close is no hang-up for the host.
            defer { close(forger) }
            let forged =
                Array(
                    #"{"error":{"message":"FORGED"},"id":"00000000-0000-0000-0000-000000000000","ok":false,"v":1}"#.utf8
                )
                + [0x0A]
            #expect(forged.withUnsafeBytes { write(forger, $0.baseAddress, forged.count) } == forged.count)
            kill(pid, SIGCONT)
            let code = waiter.exitCode
            let stderr = try String(contentsOfFile: err, encoding: .utf8)
            #expect(code == 0, "the host took the forged reply: \(stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))
            let object = try #require(report as? [String: Any])
            #expect(object["error"] == nil, "\(object)")
            #expect(object["systemCount"] as? Int == 1, "\(object)")
            #expect(stderr.contains("ignored a reply for request"), "\(stderr)")
            #expect(!stderr.contains("FORGED"))
            try stopProvider(group)
        }
    }
}
