import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc
import Synchronization

/// The host's side of the system: what `ContactProviderManager` and `contacts-host` do to a domain.
///
/// It only writes files and rings doorbells; the provider process (with the engine inside)
/// does the enumeration.
package final class SystemClient: Sendable {
    /// The domain's paths.
    package let paths: DomainPaths
    /// Whether this client has made (and checked) the domain's directories: once per client, not
    /// for every doorbell (the checks were a fifth of an idle signal's host time, P4).
    private let directoriesChecked = Atomic<Bool>(false)

    /// A client for `domain` in `appGroup`.
    package init(appGroup: AppGroup = .current, domain: String) throws {
        paths = try DomainPaths(appGroup: appGroup, domain: domain)
    }

    // MARK: Configuration

    /// The persisted configuration.
    package func configuration() throws -> DomainConfiguration {
        try DomainConfiguration.load(from: paths.configuration)
    }

    /// Changes the configuration under the domain's configuration lock.
    @discardableResult
    package func updateConfiguration(_ change: (inout DomainConfiguration) throws -> Void) throws -> DomainConfiguration
    {
        try paths.ensureDirectories()
        let lock = try FileLock(path: paths.domainDirectory + "/domain.lock")
        return try lock.withLock(.exclusive) {
            var configuration = try DomainConfiguration.load(from: paths.configuration)
            try change(&configuration)
            try configuration.save(to: paths.configuration)
            // The user changed something (enable, a new executable, a setting): launch at once again.
            LaunchBackoff.clear(paths)
            return configuration
        }
    }

    /// Whether the domain is enabled (R4: the state is per domain, shared by every process).
    package var isEnabled: Bool {
        (try? configuration().enabled) ?? false
    }

    /// Enables the domain (R5/R6); registers `extensionPath` when given.
    package func enable(extensionPath: String? = nil) throws {
        try updateConfiguration { configuration in
            configuration.enabled = true
            if let extensionPath { configuration.extensionPath = extensionPath }
        }
    }

    /// Disables the domain: it forgets every provided contact and stops the provider (R8), and
    /// everything it started (``endLeftoverProcesses(grace:)``).
    package func disable(timeout: Double? = nil) throws {
        try updateConfiguration { $0.enabled = false }
        try reset()
        defer { endLeftoverProcesses() }
        _ = try invalidate(timeout: timeout)
    }

    /// Ends every process still tagged with this domain (a provider's children that outlived it,
    /// a provider that never took the lock), and the provider itself if one still runs: SIGTERM,
    /// `grace` seconds, SIGKILL. Only for when no provider should run (the domain is disabled).
    @discardableResult
    package func endLeftoverProcesses(grace: Double = ProcessReaper.defaultGraceSeconds) -> ProcessReaper.Outcome {
        let runDirectory = paths.runDirectory
        return ProcessReaper.end(pid: providerPID, tagMatching: { $0 == runDirectory }, grace: grace)
    }

    /// Empties the system store and discards sync state; the next sync is a full content
    /// enumeration (R9). A sync in flight ends with `extensionInvalidated` at its next commit (R43).
    ///
    /// `marker` is the line the sync history gets (`.disable` when `disable` empties the store, R8).
    /// The history is a picture, not state: failing to write it is said on stderr and fails nothing.
    package func reset(marker: SyncHistoryEntry.Kind = .reset) throws {
        try paths.ensureDirectories()
        let generation = try SystemStore(directory: paths.systemStore).reset(meta: .initial)
        WatchChannel.notify(paths, WatchEvent(kind: .reset, seq: nil, generation: generation))
        do {
            try SyncHistoryFile(paths: paths).append(
                SyncHistoryEntry(kind: marker, time: Date().timeIntervalSince1970))
        } catch {
            FileHandle.standardError.write(Data("warning: the sync history could not be written: \(error)\n".utf8))
        }
    }

    // MARK: Provider process

    /// Whether a provider process holds the domain's provider lock.
    package var isProviderRunning: Bool {
        guard FileManager.default.fileExists(atPath: paths.providerLock),
            let lock = try? FileLock(path: paths.providerLock)
        else { return false }
        if (try? lock.tryLock(.shared)) == true {
            lock.unlock()
            return false
        }
        return true
    }

    /// The running provider's pid, if any.
    package var providerPID: Int32? {
        guard isProviderRunning, let text = FileLock.contents(of: paths.providerLock) else { return nil }
        return Self.pid(fromLockText: text)
    }

    /// The pid a provider writes in its lock file (`12345\n`); nil for anything else. By hand:
    /// Foundation's `trimmingCharacters` cost every signal a tenth of a millisecond of first-use
    /// work (issue 27).
    package static func pid(fromLockText text: String) -> Int32? {
        var value: Int32 = 0
        var digits = 0
        var ended = false
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39 where !ended:
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, product <= Int32.max - Int32(byte - 0x30) else { return nil }
                value = product + Int32(byte - 0x30)
                digits += 1
            case 0x20, 0x09, 0x0A, 0x0D:  // space, tab, newlines: around the number only
                if digits > 0 { ended = true }
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// Blocks until no provider holds the lock (or `timeout` passes); true when none does.
    package func waitForProviderExit(timeout: Double) -> Bool {
        guard let lock = try? FileLock(path: paths.providerLock) else { return true }
        let deadline = ContinuousSystemClock().now() + timeout
        var delay: useconds_t = 1000
        while true {
            if (try? lock.tryLock(.shared)) == true {
                lock.unlock()
                return true
            }
            if ContinuousSystemClock().now() > deadline { return false }
            usleep(delay)
            delay = min(delay * 2, 50_000)
        }
    }

    /// Rings the doorbell: `signalEnumerator()`. Launches the provider if none is listening (R12).
    ///
    /// - Parameters:
    ///   - wait: wait for the sync's report.
    ///   - extensionPath: the executable to launch when the domain has none registered.
    ///   - configuration: the domain's configuration when the caller has just read it (a command
    ///     reads `domain.json` once); nil reads it.
    /// - Returns: the provider's reply when `wait` is true.
    ///
    /// - Parameter progress: Called at least every quarter second while waiting for the reply; it
    ///   returns whether the sync advanced (committed something) since its last call. Each advance
    ///   restarts `timeout`, which then bounds silence, not a long sync that is still moving.
    package func signal(
        wait: Bool, timeout: Double = 60, trace: Bool = false, step: Bool = false, extensionPath: String? = nil,
        configuration: DomainConfiguration? = nil, progress: (() -> Bool)? = nil
    ) throws -> DoorbellReply? {
        let configuration = try configuration ?? self.configuration()
        guard configuration.enabled else { throw ClientError.domainDisabled }
        let id = UniqueIdentifier.make()
        let message = Doorbell(kind: step ? .step : .signal, id: id, reply: wait, trace: trace)
        let executable = configuration.extensionPath ?? extensionPath
        // Never stale code: a provider running another build than the registered one is retired first.
        try retireStaleProvider(registeredExecutable: configuration.extensionPath)
        return try send(message, wait: wait, timeout: timeout, launch: executable ?? "", progress: progress)
    }

    /// Runs one enumerator call in the provider without committing anything (the conformance kit).
    package func probe(_ request: ProbeRequest, timeout: Double = 60, extensionPath: String? = nil) throws
        -> ProbeResult
    {
        let configuration = try configuration()
        guard configuration.enabled else { throw ClientError.domainDisabled }
        let message = Doorbell(kind: .probe, id: UniqueIdentifier.make(), reply: true, probe: request)
        guard
            let reply = try send(
                message, wait: true, timeout: timeout, launch: configuration.extensionPath ?? extensionPath ?? ""),
            let path = reply.trace, let data = try SecureFile.readIfPresent(path)
        else {
            throw ClientError.malformedReply("the provider returned no probe result")
        }
        unlink(path)
        do {
            return try JSONDecoder().decode(ProbeResult.self, from: data)
        } catch {
            throw ClientError.malformedReply("\(path): \(error)")
        }
    }

    /// Asks the running provider to invalidate and exit (R10); nil when none runs.
    ///
    /// A provider that does not answer within `timeout`, or does not exit after answering, is
    /// ended: SIGTERM to its process group, a grace period, then SIGKILL (``ProcessReaper``), and the
    /// call throws ``ClientError/providerEnded(pid:seconds:summary:log:)`` saying so. Without a
    /// `timeout`, the provider gets the domain's page limit (the page it may be on, R41) plus its
    /// invalidate limit (R11) plus a second.
    package func invalidate(timeout: Double? = nil) throws -> DoorbellReply? {
        guard isProviderRunning, let pid = providerPID else { return nil }
        let limit = try timeout ?? defaultInvalidateWait()
        let message = Doorbell(kind: .invalidate, id: UniqueIdentifier.make(), reply: true)
        var reply: DoorbellReply?
        do {
            reply = try send(message, wait: true, timeout: limit, launch: nil)
        } catch ClientError.timeout {
            reply = nil
        }
        if reply != nil, waitForProviderExit(timeout: limit) { return reply }
        if reply == nil, !isProviderRunning { throw ClientError.timeout(seconds: limit, log: paths.providerLog) }
        let runDirectory = paths.runDirectory
        let outcome = ProcessReaper.end(pid: pid, tagMatching: { $0 == runDirectory })
        throw ClientError.providerEnded(pid: pid, seconds: limit, summary: outcome.summary, log: paths.providerLog)
    }

    /// How long a host waits for an invalidate's answer: the page in progress, then the invalidate calls.
    private func defaultInvalidateWait() throws -> Double {
        let configuration = try configuration()
        return configuration.pageTimeoutSeconds + configuration.invalidateTimeoutSeconds + 1
    }

    /// Sends `shutdown` to the running provider and waits for it to exit (tests, `demo`).
    package func shutdownProvider(timeout: Double = 10) throws {
        guard isProviderRunning else { return }
        _ = try send(Doorbell(kind: .shutdown), wait: false, timeout: timeout, launch: nil)
        _ = waitForProviderExit(timeout: timeout)
    }

    private func send(
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
    private func ensureDirectoriesOnce() throws {
        var info = stat()
        if directoriesChecked.load(ordering: .acquiring), lstat(paths.repliesDirectory, &info) == 0 { return }
        try paths.ensureDirectories()
        directoriesChecked.store(true, ordering: .releasing)
    }

    /// Delivers `line` to the provider under the shared doorbell lock, launching it if none listens.
    private func ringDoorbell(
        _ line: Data, lock doorbellLock: FileLock, wait: Bool, timeout: Double, launch executable: String?
    ) throws {
        let interrupted = { HostInterrupt.isRaised }
        try doorbellLock.withLock(.shared, shouldStop: interrupted) {
            try ringHoldingLock(line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: true)
        }
    }

    /// `ringDoorbell`'s work, with the doorbell lock held.
    private func ringHoldingLock(
        _ line: Data, wait: Bool, timeout: Double, launch executable: String?, retryIfUnreachable: Bool
    ) throws {
        switch try NamedPipe.openForWriting(paths.requests) {
        case .opened(let fd):
            defer { close(fd) }
            try deliver(fd, line, wait: wait, timeout: timeout)
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
            let fd: Int32
            do {
                fd = try openWhenReaderArrives(timeout: timeout, wake: wake, launchedExited: exited)
            } catch ClientError.providerUnreachable(let holder, let path, _) {
                // That provider notices its pipe is gone within a check interval and leaves
                // (`NamedPipe.pathCheckIntervalSeconds`): wait for it, then launch once more.
                let grace = 3 * NamedPipe.pathCheckIntervalSeconds
                guard retryIfUnreachable, waitForProviderExit(timeout: grace) else {
                    throw ClientError.providerUnreachable(pid: holder, path: path, seconds: grace)
                }
                return try ringHoldingLock(
                    line, wait: wait, timeout: timeout, launch: executable, retryIfUnreachable: false)
            } catch ClientError.timeout(let seconds, let log) {
                // It never opened its FIFO: a provider stuck at start is ended, not left behind.
                ProcessReaper.end(pid: pid, tagMatching: { _ in false })
                throw ClientError.timeout(seconds: seconds, log: log)
            }
            defer { close(fd) }
            try deliver(fd, line, wait: wait, timeout: timeout)
        }
    }

    /// Rings the doorbell. A full pipe (a backlog of doorbells) is waited out when an answer is
    /// wanted; otherwise the doorbell is coalesced with the backlog, which already asks for a sync.
    private func deliver(_ fd: Int32, _ line: Data, wait: Bool, timeout: Double) throws {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if try !NamedPipe.ring(fd, line, path: paths.requests, timeoutSeconds: wait ? timeout : 0), wait {
            throw ClientError.timeout(seconds: timeout, log: paths.providerLog)
        }
    }

    /// Opens the request FIFO for writing once the launched provider opens it for reading.
    ///
    /// A blocking open is the signal (no polling). It is abandoned — and released by opening the
    /// read end ourselves — when the launched process exits first (it crashed, or refused because
    /// another provider serves: then that one's reader is used) or the timeout passes.
    /// Both waits run on `MonotonicSemaphore` (CLOCK_MONOTONIC): a wall-clock step while the
    /// provider starts neither ends the wait early nor lengthens it (issue 31 item 8).
    private func openWhenReaderArrives(timeout: Double, wake: MonotonicSemaphore, launchedExited: ExitFlag) throws
        -> Int32
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
            return fd
        }
        // Not opened: release the blocked open, then decide.
        let releaser = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        opened.wait()
        if releaser >= 0 { close(releaser) }
        if let fd = result.fd, fd >= 0 { close(fd) }
        if !timedOut, launchedExited.isSet {
            if case .opened(let fd) = try NamedPipe.openForWriting(path) {
                return fd  // the launched process refused because another provider serves: use that one
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
    private func readReply(_ fd: Int32, id: String, timeout: Double, progress: (() -> Bool)? = nil) throws
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
    private func readingCallsFile(_ reply: DoorbellReply) throws -> DoorbellReply {
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
private final class ExitFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

private final class OpenResult: @unchecked Sendable {
    // Written once by the opening thread before it signals the semaphore; read after the wait.
    private(set) var fd: Int32?
    private(set) var error: Int32 = 0

    func set(_ fd: Int32, _ error: Int32) {
        self.fd = fd
        self.error = error
    }
}
