import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc
import Synchronization

// Ringing the provider's doorbell and reading its reply: the FIFO protocol of docs/pipe-messages.md
// (opening when a reader arrives, launching the provider when none runs, bounded waits). Split from
// SystemClient.swift, whose requests use it.
extension SystemClient {
    func send(
        _ message: Doorbell, wait: Bool, timeout: Double, launch executable: String?, progress: (() -> Bool)? = nil
    ) throws -> DoorbellReply? {
        Glibc.signal(SIGPIPE, SIG_IGN)
        try ensureDirectoriesOnce()
        var replyFD: Int32 = -1
        var replyPath: String?
        if wait, let id = message.id {
            let path = try paths.replyPipe(for: id)
            replyPath = path
            replyFD = try HeldPipe.createHeld(at: path)
        }
        defer {
            if replyFD >= 0 { close(replyFD) }
            if let replyPath { unlink(replyPath) }
        }
        let line = try message.line()
        let doorbellLock = try FileLock(path: paths.doorbellLock)
        // A Ctrl-C while another process holds the doorbell lock (a stopped provider) ends the wait too.
        do {
            try ringDoorbell(line, lock: doorbellLock, wait: wait, timeout: timeout, launch: executable)
        } catch is CancellationError {
            throw ClientError.interrupted
        }
        guard wait, replyFD >= 0, let id = message.id else { return nil }
        return try readReply(replyFD, id: id, timeout: timeout, progress: progress)
    }

    /// Makes and checks the domain's directories (``DomainPaths/ensureDirectories()``) the first
    /// time this client sends anything, and again whenever they are gone (an App Group removed and
    /// made anew under a long-lived client): the replies directory is the deepest, one `stat` says
    /// whether all of them still exist.
    func ensureDirectoriesOnce() throws {
        var info = stat()
        if directoriesChecked.load(ordering: .acquiring), lstat(paths.repliesDirectory, &info) == 0 { return }
        try paths.ensureDirectories()
        directoriesChecked.store(true, ordering: .releasing)
    }

    /// Delivers `line` to the provider under the shared doorbell lock, launching it if none listens.
    func ringDoorbell(
        _ line: Data, lock doorbellLock: FileLock, wait: Bool, timeout: Double, launch executable: String?
    ) throws {
        let interrupted = { HostInterrupt.isRaised }
        try doorbellLock.withLock(.shared, shouldStop: interrupted) {
            try ringHoldingLock(
                line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: true,
                retryIfReaderLeft: true)
        }
    }

    /// How long a host waits for a provider that is leaving to release the domain: one that no
    /// longer reads its pipe (removed under it) notices within a check interval
    /// (`NamedPipe.pathCheckIntervalSeconds`); one that closed its pipe is exiting, and lets go of
    /// its lock at once (exit closes both) unless something holds it up.
    static let leavingProviderGraceSeconds = 3 * NamedPipe.pathCheckIntervalSeconds

    /// `ringDoorbell`'s work, with the doorbell lock held. Each `retry…` allows one more ring after
    /// that mishap, so a call launches at most a bounded number of providers.
    func ringHoldingLock(
        _ line: Data, wait: Bool, timeout: Double, launch executable: String?, retryIfUnreachable: Bool,
        retryIfReaderLeft: Bool
    ) throws {
        switch try NamedPipe.openForWriting(paths.requests) {
        case .opened(let fd):
            let delivery: Delivery
            do {
                defer { close(fd) }
                delivery = try deliver(fd, line, wait: wait, timeout: timeout)
            }
            guard delivery == .readerLeft else { return }
            // The provider that was serving closed its pipe between our open and our write: it was
            // killed, crashed or was ending after an invalidate (an idle one closes it only under the
            // doorbell lock, exclusively, so never mid-ring). The line reached nobody.
            try ringAgainAfterReaderLeft(
                line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: retryIfUnreachable,
                retry: retryIfReaderLeft)
        case .noReader:
            guard let executable else { return }  // nothing running: nothing to invalidate
            guard !executable.isEmpty else { throw ClientError.noExtension }
            let attempt = try LaunchBackoff.checkAndRecord(paths, executable: executable)
            let wake = MonotonicSemaphore()
            let exited = ExitFlag()
            let pid = try ProviderLauncher.launch(executable: executable, paths: paths) {
                exited.set()
                wake.signal()
            }
            LaunchBackoff.launched(attempt, pid: pid, paths: paths)
            let reader: Reader
            do {
                reader = try openWhenReaderArrives(timeout: timeout, wake: wake, launchedExited: exited)
            } catch ClientError.providerUnreachable(let holder, let path, _) {
                // That provider notices its pipe is gone within a check interval and leaves
                // (`NamedPipe.pathCheckIntervalSeconds`): wait for it, then launch once more.
                let grace = Self.leavingProviderGraceSeconds
                guard retryIfUnreachable, waitForProviderExit(timeout: grace) else {
                    throw ClientError.providerUnreachable(pid: holder, path: path, seconds: grace)
                }
                return try ringHoldingLock(
                    line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: false,
                    retryIfReaderLeft: retryIfReaderLeft)
            } catch ClientError.timeout(let seconds, let log) {
                // It never opened its FIFO: a provider stuck at start is ended, not left behind.
                ProcessReaper.end(pid: pid, tagMatching: { _ in false })
                throw ClientError.timeout(seconds: seconds, log: log)
            }
            let delivery: Delivery
            do {
                defer { close(reader.fd) }
                delivery = try deliver(reader.fd, line, wait: wait, timeout: timeout)
            }
            guard delivery == .readerLeft else { return }
            // The provider this call launched opened its pipe and died before reading: a start
            // failure, which `LaunchBackoff` has counted. It is reported, not relaunched at once: a
            // provider that crashes at start would otherwise use up the free launches two a signal.
            guard !reader.isLaunched else { throw ClientError.providerExited(log: paths.providerLog) }
            // The one already serving (ours refused to run beside it) was leaving: as above.
            try ringAgainAfterReaderLeft(
                line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: retryIfUnreachable,
                retry: retryIfReaderLeft)
        }
    }

    /// After a doorbell found the request pipe's reader gone (``Delivery/readerLeft``): waits up to
    /// ``leavingProviderGraceSeconds`` for that provider to release the domain's lock, then rings
    /// once more (launching a provider when `executable` is given, as any ring does).
    ///
    /// The line was one atomic write that failed whole, so no provider has it, and ringing again
    /// cannot deliver it twice. A caller must not hear "the provider exited" for a request no
    /// provider ever received, just because it rang while the last one was exiting. Once only
    /// (`retry`): a second reader that leaves, or a provider that keeps the lock past the grace,
    /// is reported as ``ClientError/providerExited(log:)``.
    func ringAgainAfterReaderLeft(
        _ line: Data, wait: Bool, timeout: Double, launch executable: String?, retryIfUnreachable: Bool, retry: Bool
    ) throws {
        guard retry, waitForProviderExit(timeout: Self.leavingProviderGraceSeconds) else {
            throw ClientError.providerExited(log: paths.providerLog)
        }
        try ringHoldingLock(
            line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: retryIfUnreachable,
            retryIfReaderLeft: false)
    }

    /// What became of a doorbell written to the request pipe.
    enum Delivery: Equatable {
        /// A reader has the line (or, not waiting, one has a backlog that already asks for a sync).
        case delivered
        /// The write failed with EPIPE: the reader closed the pipe after our open, and the line,
        /// one write of at most `PIPE_BUF` bytes, reached nobody.
        case readerLeft
    }

    /// Rings the doorbell. A full pipe (a backlog of doorbells) is waited out when an answer is
    /// wanted; otherwise the doorbell is coalesced with the backlog, which already asks for a sync.
    func deliver(_ fd: Int32, _ line: Data, wait: Bool, timeout: Double) throws -> Delivery {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let rang: Bool
        do {
            rang = try NamedPipe.ring(fd, line, path: paths.requests, timeoutSeconds: wait ? timeout : 0)
        } catch PipeError.io(_, "write", EPIPE) {
            // Not an error of its own: the caller decides (the provider was exiting; ring again).
            return .readerLeft
        }
        if !rang, wait { throw ClientError.timeout(seconds: timeout, log: paths.providerLog) }
        return .delivered
    }

    /// The request pipe opened for writing, and whose reader it reached.
    struct Reader {
        var fd: Int32
        /// Whether the reader is the provider this call launched (not one that was already serving).
        var isLaunched: Bool
    }

    /// Opens the request FIFO for writing once the launched provider opens it for reading.
    ///
    /// A blocking open is the signal (no polling). It is abandoned — and released by opening the
    /// read end ourselves — when the launched process exits first (it crashed, or refused because
    /// another provider serves: then that one's reader is used) or the timeout passes.
    /// Both waits run on `MonotonicSemaphore` (CLOCK_MONOTONIC): a wall-clock step while the
    /// provider starts neither ends the wait early nor lengthens it (issue 31 item 8).
    func openWhenReaderArrives(timeout: Double, wake: MonotonicSemaphore, launchedExited: ExitFlag) throws
        -> Reader
    {
        try NamedPipe.ensure(paths.requests)
        let path = paths.requests
        let result = OpenResult()
        let opened = MonotonicSemaphore()
        Thread.detachNewThread {
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            result.set(fd, errno)
            opened.signal()
            wake.signal()
        }
        let timedOut = !wake.wait(seconds: timeout)
        if opened.wait(seconds: 0) {
            guard let fd = result.fd, fd >= 0 else {
                throw PipeError.io(path: path, operation: "open", errno: result.error)
            }
            return Reader(fd: fd, isLaunched: true)
        }
        // Not opened: release the blocked open, then decide.
        let releaser = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        opened.wait()
        if releaser >= 0 { close(releaser) }
        if let fd = result.fd, fd >= 0 { close(fd) }
        if !timedOut, launchedExited.isSet {
            if case .opened(let fd) = try NamedPipe.openForWriting(path) {
                // The launched process refused because another provider serves: use that one.
                return Reader(fd: fd, isLaunched: false)
            }
            // Refused, yet nobody reads the pipe: the provider holding the lock reads one that was
            // removed or replaced. Said at once, instead of a wait or "exited before answering".
            if let pid = providerPID, kill(pid, 0) == 0 {
                throw ClientError.providerUnreachable(pid: pid, path: path, seconds: 0)
            }
        }
        if timedOut { throw ClientError.timeout(seconds: timeout, log: paths.providerLog) }
        throw ClientError.providerExited(log: paths.providerLog)
    }

    /// Reads the answer to request `id` from its reply FIFO.
    ///
    /// Only a reply that names `id` is this request's: anyone who can write into the FIFO (another
    /// process of the same user, a provider answering a request it mixed up) could otherwise hand
    /// this host another sync's report. Such a line is skipped, reported on stderr, and the wait
    /// goes on for the real answer within the same time limit.
    func readReply(_ fd: Int32, id: String, timeout: Double, progress: (() -> Bool)? = nil) throws
        -> DoorbellReply
    {
        var buffer = BoundedLineBuffer(limit: 64 * 1024)
        var deadline = ContinuousSystemClock().now() + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // Checked at least every 0.25 s (the wait below): the caller's defer then removes the reply FIFO.
            if HostInterrupt.isRaised { throw ClientError.interrupted }
            // A sync that committed something since the last look is alive: the timeout counts silence.
            if let progress, progress() { deadline = ContinuousSystemClock().now() + timeout }
            // A provider a debugger holds is not silent, it is being looked at: like the system's own
            // limits (DebuggerPresence), the wait does not end while a debugger is attached. Read only
            // as the deadline nears, so an ordinary wait costs no /proc reads.
            if deadline - ContinuousSystemClock().now() < 1, let pid = providerPID, DebuggerPresence.isTraced(pid: pid)
            {
                deadline = ContinuousSystemClock().now() + timeout
            }
            let remaining = deadline - ContinuousSystemClock().now()
            guard remaining > 0 else { throw ClientError.timeout(seconds: timeout, log: paths.providerLog) }
            // Wake up now and then to notice a provider killed before it opened our reply pipe
            // (then no hang-up ever arrives): its lock is free and nothing is left to read.
            guard NamedPipe.waitReadable(fd, timeoutSeconds: min(remaining, 0.25)) else {
                if !isProviderRunning, !NamedPipe.waitReadable(fd, timeoutSeconds: 0) {
                    throw ClientError.providerExited(log: paths.providerLog)
                }
                continue
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if count == 0 {
                // Every writer closed: the provider died after taking our request.
                throw ClientError.providerExited(log: paths.providerLog)
            }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw PipeError.io(path: paths.repliesDirectory, operation: "read", errno: errno)
            }
            let items = chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for item in items {
                guard case .line(let line) = item else { throw ClientError.malformedReply("reply line too long") }
                let reply: DoorbellReply
                do {
                    reply = try ReplyCoding.decode(line)
                } catch {
                    throw ClientError.malformedReply("\(error)")
                }
                guard reply.id == id else {
                    StandardError.write(
                        "contacts-host: ignored a reply for request \(reply.id.debugDescription) on the reply pipe of "
                            + "request \(id) (\(paths.repliesDirectory)); still waiting for its own answer\n")
                    continue
                }
                return try readingCallsFile(reply)
            }
        }
    }

    /// `reply` with the call times of its ``DoorbellReply/callsFile`` back in its report, the file
    /// removed: only the file this request's id names is read.
    func readingCallsFile(_ reply: DoorbellReply) throws -> DoorbellReply {
        guard let path = reply.callsFile else { return reply }
        let expected = try paths.callsFile(for: reply.id)
        guard path == expected else {
            throw ClientError.malformedReply("the call times file \(path.debugDescription) is not \(expected)")
        }
        defer { unlink(path) }
        guard let data = try SecureFile.readIfPresent(path), let calls = ReplyCoding.readCalls(data) else {
            throw ClientError.malformedReply("the call times file \(path) is missing or not one number a line")
        }
        var reply = reply
        reply.report?.callMilliseconds = calls
        reply.callsFile = nil
        return reply
    }
}

/// Set once by the reaper thread when a launched provider exits.
final class ExitFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

final class OpenResult: @unchecked Sendable {
    // Written once by the opening thread before it signals the semaphore; read after the wait.
    private(set) var fd: Int32?
    private(set) var error: Int32 = 0

    func set(_ fd: Int32, _ error: Int32) {
        self.fd = fd
        self.error = error
    }
}
