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
    let directoriesChecked = Atomic<Bool>(false)

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
    func defaultInvalidateWait() throws -> Double {
        let configuration = try configuration()
        return configuration.pageTimeoutSeconds + configuration.invalidateTimeoutSeconds + 1
    }

    /// Sends `shutdown` to the running provider and waits for it to exit (tests, `demo`).
    package func shutdownProvider(timeout: Double = 10) throws {
        guard isProviderRunning else { return }
        _ = try send(Doorbell(kind: .shutdown), wait: false, timeout: timeout, launch: nil)
        _ = waitForProviderExit(timeout: timeout)
    }
}
