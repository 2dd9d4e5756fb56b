import AppGroupStore
import ContactProvider
import ContactProviderSystem
import Foundation
import Glibc

/// A provider the kit can drive: in this process (a type) or as an executable over the real pipes.
protocol ProviderUnderTest: AnyObject {
    /// The domain's paths (configuration and system store).
    var paths: DomainPaths { get }
    /// One enumerator call, nothing committed.
    func probe(_ request: ProbeRequest) async throws -> ProbeResult
    /// A sync through the system (commits), at most `maxSteps` pages/batches (1 or unlimited),
    /// waited for as long as `expectedCalls` calls may take (each within the page limit).
    func sync(maxSteps: Int, expectedCalls: Int) async throws -> (SyncReport, [String])
    /// Ends the provider abruptly (a crash or a kill) and starts a fresh one.
    func restart() async throws
    /// Asks the provider to invalidate; returns how long it took and any error.
    func invalidate() async throws -> (seconds: Double, error: String?)
    /// Stops everything this subject started.
    func shutdown() async
    /// Runs the provider from now on with the device's settings `environment` (`TZ`, `LANG`,
    /// `LC_ALL`; empty: the kit's own), restarting it; false when this subject cannot (a provider
    /// in the kit's own process shares the process's time zone and locale).
    func useDeviceSettings(_ environment: [String: String]) async throws -> Bool
}

extension ProviderUnderTest {
    /// A sync of a few calls (the kit's small data sets).
    func sync(maxSteps: Int) async throws -> (SyncReport, [String]) {
        try await sync(maxSteps: maxSteps, expectedCalls: 1)
    }

    /// The contacts the system received.
    func systemContacts() throws -> [ContactRecord] {
        try SystemStore(directory: paths.systemStore).load().contacts
    }

    /// Empties the system store (`ContactProviderManager.reset()`).
    func resetSystem() throws {
        try SystemClient(appGroup: paths.appGroup, domain: paths.domain).reset()
    }
}

/// A provider type running in the kit's own process (the `checkContactProvider(MyProvider.self)` path).
final class InProcessProvider: ProviderUnderTest {
    let paths: DomainPaths
    private let type: any ContactProviderExtension.Type
    private var session: ExtensionSession
    private var engine: SyncEngine
    private let timeout: Double

    init(_ type: any ContactProviderExtension.Type, paths: DomainPaths, timeout: Double) {
        self.type = type
        self.paths = paths
        self.timeout = timeout
        session = ExtensionSession(type, domain: DefaultContactProviderDomain())
        engine = SyncEngine(paths: paths, onEvent: WatchChannel.notifier(for: paths))
    }

    func probe(_ request: ProbeRequest) async throws -> ProbeResult {
        await SyncEngine.probe(request, driver: session.driver, timeoutSeconds: timeout)
    }

    func sync(maxSteps: Int, expectedCalls: Int) async throws -> (SyncReport, [String]) {
        let transcript = Transcript()
        let report = await engine.sync(driver: session.driver, transcript: transcript, maxSteps: maxSteps)
        return (report, transcript.all)
    }

    func restart() async throws {
        // A crashed extension gets no invalidate(); the next one starts from the committed state only.
        session = ExtensionSession(type, domain: DefaultContactProviderDomain())
        engine = SyncEngine(paths: paths, onEvent: WatchChannel.notifier(for: paths))
    }

    func invalidate() async throws -> (seconds: Double, error: String?) {
        let clock = ContinuousSystemClock()
        let started = clock.now()
        let outcome = await Self.invalidate(session, within: timeout)
        let seconds = clock.now() - started
        switch outcome {
        case .threw(let error):
            return (seconds, "invalidate() threw \(error)")
        case .timedOut:
            // R11: the system ends an extension that does not return; the kit abandons the call and
            // goes on with a fresh instance.
            session = ExtensionSession(type, domain: DefaultContactProviderDomain())
            return (
                seconds,
                String(
                    format: "invalidate() did not return within %.1f s; the system ends the extension "
                        + "(extensionInvalidateTimeout, R11)", timeout)
            )
        case .finished:
            session = ExtensionSession(type, domain: DefaultContactProviderDomain())
            return (seconds, nil)
        }
    }

    func shutdown() async {
        _ = await Self.invalidate(session, within: timeout)
    }

    func useDeviceSettings(_ environment: [String: String]) async throws -> Bool { environment.isEmpty }

    /// The enumerator's `invalidate()`, then the extension's, raced against the time limit (R11, R17):
    /// an `invalidate()` that never returns must not hang the kit.
    private static func invalidate(_ session: ExtensionSession, within seconds: Double) async -> Deadline.Outcome {
        let box = AbandonableSession(session: session)
        return await Deadline.race(seconds: seconds) {
            await box.session.driver.invalidate()
            try await box.session.invalidateExtension()
        }
    }
}

/// A session handed to the call that races a deadline; after a timeout only that abandoned call
/// touches it (the kit has moved on to a fresh session).
private struct AbandonableSession: @unchecked Sendable {
    let session: ExtensionSession
}

/// A provider executable launched by the system over the real FIFOs (the `contacts-host conformance` path).
final class ExecutableProvider: ProviderUnderTest {
    let paths: DomainPaths
    private let client: SystemClient
    private let timeout: Double
    private let invalidateTimeout: Double

    init(paths: DomainPaths, timeout: Double) throws {
        self.paths = paths
        // The provider enforces the page timeout itself and reports it (enumerationTimeout); the
        // kit waits longer than that, so a slow page is reported as exactly that, not as silence.
        self.timeout = timeout * 2 + 5
        invalidateTimeout = timeout
        client = try SystemClient(appGroup: paths.appGroup, domain: paths.domain)
    }

    func probe(_ request: ProbeRequest) async throws -> ProbeResult {
        let client = self.client
        let timeout = self.timeout
        return try await offload { try client.probe(request, timeout: timeout) }
    }

    func sync(maxSteps: Int, expectedCalls: Int) async throws -> (SyncReport, [String]) {
        let client = self.client
        // Each call within the page limit, and a second for committing its page.
        let timeout = self.timeout + Double(max(0, expectedCalls - 1)) * (invalidateTimeout + 1)
        return try await offload {
            guard let reply = try client.signal(wait: true, timeout: timeout, trace: true, step: maxSteps == 1),
                let report = reply.report
            else {
                throw SystemClient.ClientError.malformedReply("no report")
            }
            var transcript: [String] = []
            if let path = reply.trace, let data = try? SecureFile.readIfPresent(path) {
                transcript = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                unlink(path)
            }
            return (report, transcript)
        }
    }

    func restart() async throws {
        let client = self.client
        try await offload {
            if let pid = client.providerPID {
                // The whole extension dies, as when the system kills it: the provider's process group
                // (it leads one, launched with setsid) with any child it forked.
                if getpgid(pid) == pid { kill(-pid, SIGKILL) }
                kill(pid, SIGKILL)
                _ = client.waitForProviderExit(timeout: 10)
            }
        }
    }

    func invalidate() async throws -> (seconds: Double, error: String?) {
        let client = self.client
        let timeout = self.invalidateTimeout
        // The provider answers within its own invalidate limit (R11) after the page it is on: the
        // host waits longer than that, so a late answer is reported as such, not ended as a hang.
        let answerWait = self.timeout + timeout
        return try await offload {
            let clock = ContinuousSystemClock()
            if !client.isProviderRunning {
                // Launch it so there is something to invalidate.
                _ = try client.signal(wait: true, timeout: timeout)
            }
            let start = clock.now()
            let reply = try client.invalidate(timeout: answerWait)
            return (clock.now() - start, reply?.error?.message)
        }
    }

    func shutdown() async {
        let client = self.client
        _ = try? await offload { try client.shutdownProvider() }
    }

    func useDeviceSettings(_ environment: [String: String]) async throws -> Bool {
        try client.updateConfiguration { $0.deviceEnvironment = environment }
        // The next sync launches a provider that starts with them.
        try await restart()
        return true
    }
}

/// The threads blocking pipe work runs on: a queue of Dispatch's own (not the width-limited global
/// queues, whose threads a blocked call could all hold), whose idle threads are reused.
private let offloadQueue = DispatchQueue(label: "ContactProviderConformance.offload", attributes: .concurrent)

/// Runs blocking pipe work off the cooperative thread pool.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        offloadQueue.async {
            continuation.resume(with: Result { try work() })
        }
    }
}
