import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// A doorbell rung just as the provider leaves: the host opened `requests.fifo` while the provider
/// still read it, and the provider closed it before the host's write, which failed with EPIPE. That
/// line, one atomic write, reached no provider; the host used to report "the provider exited before
/// answering" for it. It now waits for the leaving provider to release the domain and rings once
/// more, launching a provider (pipe-messages.md, "A provider that leaves as the host rings").
///
/// The race is made deterministic by this process standing in for the leaving provider
/// (``LeavingProvider``): it holds the provider lock and the request pipe's read end with the pipe
/// full, so the host that opened the pipe waits in `poll` for room, and the stand-in closes its end
/// only once `/proc` shows the host holding the pipe: the host's next write is the EPIPE.
@Suite("Reliability: a doorbell rung as the provider leaves")
struct LeavingProviderDoorbellTests {
    @Test("signal --wait whose write finds the reader gone (EPIPE) waits for that provider and is served by a new one")
    func readerLeftIsRungAgain() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let leaving = try LeavingProvider(paths)
            let host = try HostProcess(["signal", "--wait", "--timeout", "30"], in: group)
            defer { host.process.kill() }

            #expect(host.waitUntilHolding(paths.requests), "the host never opened the request pipe")
            leaving.closePipe()  // the host's write fails with EPIPE
            // It lets go of the pipe and waits for the provider lock (held still): it must not give up.
            #expect(host.waitUntilNotHolding(paths.requests))
            #expect(!ProcessExit.isGone(host.process.pid), "the host gave up instead of waiting: \(host.result())")
            leaving.releaseLock()

            let result = host.result()
            #expect(result.exitCode == 0, "\(result)")
            let provider = try #require(group.providerPID(), "no provider serves after the retry")
            #expect(provider != getpid())
            let system = try HostRunner.process.succeed(["system", "list", "--json"], in: group)
            #expect(system.contains("ada"), "\(system)")
        }
    }

    @Test("a second reader that leaves as well is reported: the provider exited, naming its log")
    func secondReaderLeftFails() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let leaving = try LeavingProvider(paths)
            let host = try HostProcess(["signal", "--wait", "--timeout", "30"], in: group)
            defer { host.process.kill() }

            #expect(host.waitUntilHolding(paths.requests), "the host never opened the request pipe")
            leaving.closePipe()
            #expect(host.waitUntilNotHolding(paths.requests))
            // Another reader takes the pipe before the lock is free: the host's one more ring reaches
            // it, and it leaves too.
            try leaving.openPipe()
            leaving.releaseLock()
            #expect(host.waitUntilHolding(paths.requests), "the host did not ring again: \(host.result())")
            leaving.closePipe()

            let result = host.result()
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("the provider exited before answering (its log: \(paths.providerLog))"))
            #expect(group.providerPID() == nil, "a provider was launched after the second EPIPE")
        }
    }

    @Test("a provider that keeps the domain after closing its pipe is waited for a bounded grace, then reported")
    func leavingProviderThatStaysIsReported() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            let leaving = try LeavingProvider(paths)
            defer { leaving.releaseLock() }
            let host = try HostProcess(["signal", "--wait", "--timeout", "30"], in: group)
            defer { host.process.kill() }

            #expect(host.waitUntilHolding(paths.requests), "the host never opened the request pipe")
            let clock = ContinuousClock()
            let closed = clock.now
            leaving.closePipe()
            let result = host.result()
            let waited = clock.now - closed
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("the provider exited before answering (its log: \(paths.providerLog))"))
            // Three path-check intervals (`SystemClient.leavingProviderGraceSeconds`), not the 30 s timeout.
            #expect(waited >= .milliseconds(2_900), "the host did not wait for the provider to leave: \(waited)")
            #expect(waited < .seconds(20), "the host waited \(waited)")
            #expect(group.providerPID() == nil)
        }
    }
}

/// This process standing in for a provider on its way out: it holds the domain's provider lock
/// (empty, as a provider leaves it just before it unlocks: no pid for the host to retire) and the
/// request pipe's read end, opened as a provider opens it (`O_RDWR`) and filled, so that a host's
/// write waits for room instead of landing in the pipe.
private final class LeavingProvider {
    private let paths: DomainPaths
    private let lock: FileLock
    private var pipe: Int32 = -1
    private var locked = true

    init(_ paths: DomainPaths) throws {
        self.paths = paths
        try paths.ensureDirectories()
        lock = try FileLock(path: paths.providerLock)
        try #require(try lock.tryLock(.exclusive), "a provider already holds the domain")
        lock.writeContents("")
        try openPipe()
    }

    /// Opens the request pipe for reading and fills it.
    func openPipe() throws {
        pipe = try NamedPipe.openForReading(paths.requests)
        let chunk = [UInt8](repeating: 0x0A, count: NamedPipe.atomicWriteLimit)
        while chunk.withUnsafeBytes({ write(pipe, $0.baseAddress, chunk.count) }) > 0 {}
        try #require(errno == EAGAIN, "filling the request pipe failed: errno \(errno)")
    }

    /// Closes the pipe's read end: a host waiting to write then gets EPIPE.
    func closePipe() {
        if pipe >= 0 { close(pipe) }
        pipe = -1
    }

    /// Lets go of the provider lock, as the leaving provider's exit would.
    func releaseLock() {
        guard locked else { return }
        locked = false
        lock.unlock()
    }

    deinit {
        closePipe()
        releaseLock()
    }
}

/// `contacts-host` started in the background, its output in files beside the App Group.
private final class HostProcess {
    let process: SpawnedProcess
    private let stdoutPath: String
    private let stderrPath: String
    private var finished: ProcessResult?

    init(_ arguments: [String], in group: TemporaryAppGroup) throws {
        stdoutPath = group.path + "/host.stdout"
        stderrPath = group.path + "/host.stderr"
        process = try SpawnedProcess(
            [BuiltProducts.path("contacts-host")] + arguments, environment: group.environment, stdout: stdoutPath,
            stderr: stderrPath)
    }

    /// Waits for the host to exit; its exit code and output.
    func result() -> ProcessResult {
        if let finished { return finished }
        let code = process.exitCode ?? -1
        let stdout = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        let result = ProcessResult(exitCode: code, stdout: stdout, stderr: stderr)
        finished = result
        return result
    }

    /// Waits (up to 30 s) until the host has the file at `path` open; false when it exited first.
    func waitUntilHolding(_ path: String) -> Bool {
        Poll.until(seconds: 30, every: 0.001) { holds(path) || ProcessExit.isGone(process.pid) } && holds(path)
    }

    /// Waits (up to 30 s) until the host no longer has the file at `path` open.
    func waitUntilNotHolding(_ path: String) -> Bool {
        Poll.until(seconds: 30, every: 0.001) { !holds(path) }
    }

    /// Whether one of the host's descriptors is the file at `path` (by device and inode).
    private func holds(_ path: String) -> Bool {
        var target = stat()
        guard stat(path, &target) == 0 else { return false }
        let directory = "/proc/\(process.pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return descriptors.contains { descriptor in
            var info = stat()
            return stat(directory + "/" + descriptor, &info) == 0 && info.st_dev == target.st_dev
                && info.st_ino == target.st_ino
        }
    }
}
