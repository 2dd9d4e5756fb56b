import AppGroupStore
import CommandLineToolkit
import Dispatch
import Foundation
import Glibc

/// The provider process: it waits on the request FIFO and lets the system engine drive the
/// extension's enumerator, one sync per batch of doorbells.
///
/// Lifecycle (R15–R17): the runtime takes the domain's provider lock (single consumer), opens the
/// request FIFO, then creates the session (`init()`, `configure(for:)`, `enumerator(for:)`), and
/// serves until an idle timeout, an `invalidate`/`shutdown` doorbell, or SIGTERM/SIGINT. Before it
/// exits it calls the enumerator's `invalidate()` and then the extension's (with a time limit, R11).
package final class ProviderRuntime {
    let options: RuntimeOptions
    /// The domain's paths (read by the start-up steps in `ProviderRuntime+Startup.swift`).
    let paths: DomainPaths
    let log: @Sendable (String) -> Void

    /// A runtime for `options`.
    package init(options: RuntimeOptions) throws {
        self.options = options
        paths = try DomainPaths(appGroup: options.appGroup, domain: options.domain)
        let name = (CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "provider"
        let pid = getpid()
        let logPath = paths.providerLog
        log = { message in
            StandardError.write("\(Self.timestamp()) \(name)[\(pid)] \(message)\n")
            ProviderLog.rotateOwnOutputIfNeeded(logPath)
        }
    }

    /// `2026-11-30T12:00:00Z`, formatted with strftime: creating an ISO8601DateFormatter per log line
    /// (ICU time-zone and symbol tables) was a measurable part of every idle signal.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs the provider until it exits; returns the process exit code.
    package func run(makeSession: () throws -> ProviderSession) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        do {
            try SecureFile.checkAppGroupRoot(options.appGroup.path)
            try paths.ensureDirectories()
            let configuration = try DomainConfiguration.load(from: paths.configuration)
            guard configuration.enabled else {
                log(
                    "domain '\(options.domain)' is not enabled; the system does not run the extension (R7). Run 'contacts-host enable'."
                )
                return ExitCode.failure
            }
            let providerLock = try FileLock(path: paths.providerLock)
            guard try acquire(providerLock) else {
                log(
                    "another provider is already running for domain '\(options.domain)' (pid \(FileLock.contents(of: paths.providerLock) ?? "?")); refusing to start a second one"
                )
                // The domain has a provider that started: not a start failure of this executable.
                unlink(paths.launchAttempts)
                return ExitCode.alreadyRunning
            }
            providerLock.writeContents("\(getpid())\n")
            removeLeftovers()
            defer {
                providerLock.writeContents("")
                providerLock.unlock()
            }
            waitForDebuggerIfAsked()
            let requests = try NamedPipe.openForReading(paths.requests)
            let signalSources = installTerminationHandlers(requestsFD: requests)
            defer { for source in signalSources { source.cancel() } }
            let rotation = startLogRotationTimer()
            defer { rotation.cancel() }
            log("serving domain '\(options.domain)' in \(options.appGroup.path)")
            let session = try makeSession()
            // Started (R15/R16 done): the launches that failed before this one are forgotten (LaunchBackoff).
            unlink(paths.launchAttempts)
            let code = await serve(session: session, requests: requests, configuration: configuration)
            return code
        } catch {
            log("error: \(error)")
            return ExitCode.failure
        }
    }

    /// What the extension prints itself goes straight to the log: looked at once a second.
    private func startLogRotationTimer() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let path = paths.providerLog
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(250))
        timer.setEventHandler { ProviderLog.rotateOwnOutputIfNeeded(path) }
        timer.resume()
        return timer
    }

    private func installTerminationHandlers(requestsFD: Int32) -> [DispatchSourceSignal] {
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let log = self.log
            source.setEventHandler {
                log("received signal \(number); shutting down")
                // The runtime holds the FIFO open for writing too, so it can ring its own doorbell.
                if let line = try? Doorbell(kind: .shutdown).line() {
                    _ = line.withUnsafeBytes { write(requestsFD, $0.baseAddress, line.count) }
                }
            }
            source.resume()
            sources.append(source)
        }
        return sources
    }

    private func serve(session: ProviderSession, requests: Int32, configuration: DomainConfiguration) async -> Int32 {
        await ProviderServeLoop(runtime: self, session: session, requests: requests, configuration: configuration).run()
    }

    func runSync(
        engine: SyncEngine, session: ProviderSession, waiters: [Waiter], maxSteps: Int,
        stopRequested: () -> Bool = { false }
    ) async -> SyncReport {
        let log = self.log
        var echo: (@Sendable (String) -> Void)?
        if options.foreground {
            echo = { @Sendable line in log(line) }
        }
        let transcript = Transcript(echo: echo)
        var report = await engine.sync(
            driver: session.driver, transcript: transcript, maxSteps: maxSteps, stopRequested: stopRequested)
        let summary: String
        if let error = report.error {
            summary = "failed: \(error.message)"
        } else {
            summary =
                "\(report.enumeration): \(counted(report.pages, "page")), \(counted(report.batches, "batch", plural: "batches")), "
                + "\(report.updated) updated, \(report.deleted) deleted, \(report.systemCount) in the system store"
        }
        log("sync \(summary)")
        var tracePath: String?
        if !waiters.contains(where: \.trace) {
            // Call times are part of a trace; an untraced report keeps its one-line shape.
            report.callMilliseconds = nil
        }
        if let traced = waiters.first(where: \.trace) {
            let path = paths.tracesDirectory + "/" + traced.id + ".log"
            let text = transcript.all.joined(separator: "\n") + "\n"
            if (try? SecureFile.replace(path, with: Data(text.utf8))) != nil { tracePath = path }
            ProviderLog.capTraces(in: paths.tracesDirectory)
        }
        for waiter in waiters {
            reply(
                waiter,
                DoorbellReply(
                    id: waiter.id, ok: report.error == nil, report: report, trace: waiter.trace ? tracePath : nil))
        }
        return report
    }

    func drain(_ fd: Int32, into buffer: inout BoundedLineBuffer) -> [Doorbell] {
        var messages: [Doorbell] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        // Bounded per wake-up: a flood of doorbells is coalesced into one sync, never buffered without end.
        var budget = 256
        while budget > 0 {
            budget -= 1
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if count <= 0 { break }
            let items = chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for item in items {
                switch item {
                case .oversized:
                    log("ignored a request line longer than \(buffer.limit) bytes on \(paths.requests)")
                case .line(let line):
                    do {
                        messages.append(try Doorbell.parse(line))
                    } catch {
                        // A half-written doorbell glued to a whole one: keep the whole one.
                        if let (message, dropped) = Doorbell.resynchronize(line) {
                            let preview = String(decoding: dropped.prefix(80), as: UTF8.self)
                            log(
                                "ignored \(dropped.count) bytes of an unfinished request before a doorbell on "
                                    + "\(paths.requests): \(preview.debugDescription)")
                            messages.append(message)
                        } else {
                            log("ignored a malformed request on \(paths.requests): \(error)")
                        }
                    }
                }
            }
            if messages.count > 1024 { break }
        }
        return messages
    }

    /// Opens the waiting host's reply FIFO now, so the host sees a hang-up if this process dies.
    func openReply(_ id: String) -> Int32? {
        guard let path = try? paths.replyPipe(for: id) else { return nil }
        guard case .opened(let fd) = try? NamedPipe.openForWriting(path) else { return nil }
        return fd
    }

    func reply(_ waiter: Waiter, _ message: DoorbellReply) {
        guard let fd = waiter.fd else { return }
        defer { close(fd) }
        var message = message
        guard var line = try? ReplyCoding.encode(message) else { return }
        // Keep the reply one atomic write. A traced sync's call times, one per page or batch, go to
        // a file the host reads back (at 1,000,000 contacts they are a thousand numbers).
        if line.count >= NamedPipe.atomicWriteLimit - 1, let calls = message.report?.callMilliseconds,
            let path = try? paths.callsFile(for: waiter.id), (try? ReplyCoding.writeCalls(calls, to: path)) != nil
        {
            message.report?.callMilliseconds = nil
            message.callsFile = path
            line = (try? ReplyCoding.encode(message)) ?? line
        }
        if line.count >= NamedPipe.atomicWriteLimit - 1 {
            // Warnings and the error are in last-sync.json in full.
            let kept = Array(message.report?.warnings.prefix(3) ?? [])
            message.report?.warnings = kept + ["… see \(paths.lastSync)"]
            let shortened = { (text: String) in
                text.count > 1000 ? String(text.prefix(1000)) + "… (in full in \(self.paths.lastSync))" : text
            }
            if let text = message.report?.error?.message { message.report?.error?.message = shortened(text) }
            if let text = message.error?.message { message.error?.message = shortened(text) }
            line = (try? ReplyCoding.encode(message)) ?? line
        }
        line.append(UInt8(ascii: "\n"))
        try? NamedPipe.writeLine(fd, line, path: (try? paths.replyPipe(for: waiter.id)) ?? "reply")
    }

    func withDeadline(_ seconds: Double, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
        if case .timedOut = await Deadline.race(seconds: seconds, operation) { return false }
        return true
    }
}

/// Carries a value that is not `Sendable` into a task that the owner awaits.
///
/// Used only where one task hands a value to a child it awaits and never touches it meanwhile.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension ExitCode {
    /// The provider's own status: another provider process already serves the domain.
    package static let alreadyRunning: Int32 = 3
}
