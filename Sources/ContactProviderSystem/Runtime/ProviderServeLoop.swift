import AppGroupStore
import CommandLineToolkit
import Foundation
import Glibc

/// The provider's serve loop: it waits for doorbells, decides each batch's ``DoorbellRound`` and
/// carries it out (the sync, the steps, compaction, the probes), until an idle timeout or an
/// `invalidate`/`shutdown`; then it invalidates the extension and answers every host still waiting.
final class ProviderServeLoop {
    private let runtime: ProviderRuntime
    private let session: ProviderSession
    private let engine: SyncEngine
    private let requests: Int32
    private let configuration: DomainConfiguration
    private var buffer = BoundedLineBuffer()
    private var requestsOpen = true
    /// Doorbells read but not yet handled (they arrived during a sync, or after the idle wait).
    private var pending: [Doorbell] = []
    private var exitWaiters: [Waiter] = []
    private var stopping = false
    /// The report of a sync that an `invalidate`/`shutdown` ended: hosts whose signals arrived
    /// during that sync get it too, instead of a new sync before the process exits (R10, R43).
    private var endedSync: SyncReport?
    /// Whether the launch-attempts record was removed after a doorbell (see `run`).
    private var forgotLaunchAttempts = false
    /// How long the doorbells must pause before a due compaction starts (see `run`): longer than the
    /// gap between two signals of a script or a test, short beside a person's.
    static let compactionPause = 0.05
    /// How long an exit after `invalidate`, `shutdown` or a removed pipe waits for the doorbell lock
    /// before it drains and closes without it (see `invalidateAndAnswerEveryone`).
    static let exitDoorbellLockSeconds = 0.25
    /// The longest pause asked for after attempts that doorbells abandoned (``CompactionBackoff``).
    static let longestCompactionPause = 1.6
    /// The pause the next compaction waits for.
    private var compactionBackoff = CompactionBackoff(
        shortest: ProviderServeLoop.compactionPause, longest: ProviderServeLoop.longestCompactionPause)

    init(runtime: ProviderRuntime, session: ProviderSession, requests: Int32, configuration: DomainConfiguration) {
        self.runtime = runtime
        self.session = session
        self.requests = requests
        self.configuration = configuration
        let notify = WatchChannel.notifier(for: runtime.paths)
        // After each commit, the extension's own state (its UserDefaults) is made durable too, so a
        // `kill -9` after a commit finds the provider's change tracking as far along as the system.
        engine = SyncEngine(
            paths: runtime.paths,
            onEvent: { event in
                notify(event)
                session.persistState()
            })
    }

    /// Serves until the provider ends; returns the process's exit code.
    func run() async -> Int32 {
        while !stopping {
            guard let batch = nextBatch() else { break }
            guard !batch.isEmpty else { continue }
            if runtime.options.foreground {
                for message in batch {
                    runtime.log("request: \(message.kind.rawValue)\(message.id.map { " \($0)" } ?? "")")
                }
            }
            if !forgotLaunchAttempts {
                // The runtime removed the record when the session was made, but the host that
                // launched this process writes it (with this pid) after the launch returns: on a
                // loaded machine that write can land after the removal, and a provider that started
                // would count as a start failure (LaunchBackoff). The host writes it before it rings,
                // so once a doorbell is read here the removal is final.
                unlink(runtime.paths.launchAttempts)
                forgotLaunchAttempts = true
            }
            var round = DoorbellRound(batch, openReply: runtime.openReply)
            stopping = stopping || round.endsProvider
            exitWaiters += round.exitWaiters
            if let endedSync { answer(round.takeWaitersOfEndedSync(), with: endedSync) }
            if round.runsSync { await sync(answering: round.syncWaiters) }
            await steps(round.stepWaiters)
            // After every waiting host has its answer: compaction costs O(store), nobody waits for it,
            // and a doorbell that rings meanwhile (a signal right after a large sync) abandons it
            // instead of waiting up to seconds behind it. It starts only once the doorbells have
            // paused (`compactionPause`): every abandoned attempt costs its start (a pass over the
            // store's first lines), and a burst of signals (a script, the kit, the bench) would pay
            // it at each one: a debug build's one-change sync at 1,000,000 contacts took 3× its
            // figure at 1,000 that way (`contacts-bench --goals`, issue 27).
            // Each abandoned attempt doubles the pause the next one waits for (``CompactionBackoff``):
            // signals a tenth of a second apart (a script, the bench's loop) otherwise started one
            // at every gap, and each of them waited for it to give way.
            if !stopping, pending.isEmpty, engine.isCompactionDue,
                !NamedPipe.waitReadable(requests, timeoutSeconds: compactionBackoff.pause)
            {
                // At background priority (``BackgroundPriority``): readers of the store meanwhile
                // come first on a busy machine. This loop waits for it, so nothing else runs here.
                let requests = requests
                let compacted = BackgroundPriority.run {
                    engine.compactIfNeeded(shouldStop: { NamedPipe.waitReadable(requests, timeoutSeconds: 0) })
                }
                compactionBackoff.record(finished: compacted || !engine.isCompactionDue)
            }
            await probes(round.probes)
        }
        await invalidateAndAnswerEveryone()
        return ExitCode.success
    }

    /// The doorbells to handle next: those pending, else what the pipe brings. Empty: nothing to
    /// do yet (a debugged provider that idled). Nil: idle long enough to exit.
    private func nextBatch() -> [Doorbell]? {
        if pending.isEmpty {
            let idle =
                runtime.options.foreground
                ? Double.infinity : (runtime.options.idleTimeoutSeconds ?? configuration.idleTimeoutSeconds)
            switch waitForDoorbells(idleSeconds: idle) {
            case .readable:
                pending += runtime.drain(requests, into: &buffer)
            case .pipeGone:
                runtime.log(
                    "\(runtime.paths.requests) was removed or replaced: no host can reach this provider; "
                        + "exiting, so the next signal launches one on the new pipe")
                return nil
            case .idle:
                // A debugged extension is not ended for idling (Xcode keeps it while attached).
                if DebuggerPresence.isTraced() { return [] }
                // Idle: under the doorbell lock no host is mid-ring, so after a final drain nothing
                // can be left unanswered in the pipe.
                guard let doorbellLock = try? FileLock(path: runtime.paths.doorbellLock),
                    (try? doorbellLock.lock(.exclusive)) != nil
                else { return nil }
                defer { doorbellLock.unlock() }
                let late = runtime.drain(requests, into: &buffer)
                if late.isEmpty {
                    close(requests)
                    requestsOpen = false
                    runtime.log("idle for \(idle) s; exiting")
                    return nil
                }
                pending += late
            }
        }
        defer { pending = [] }
        return pending
    }

    /// What the idle wait saw.
    private enum DoorbellWait {
        case readable
        case idle
        /// `requests.fifo` no longer leads to the pipe this provider reads.
        case pipeGone
    }

    /// Waits up to `idleSeconds` for a doorbell, checking between slices that the request FIFO's path
    /// still leads to the pipe this provider reads (a provider that kept reading a removed pipe held
    /// the domain's lock for ever, and every signal failed: issue 42, item 12).
    private func waitForDoorbells(idleSeconds: Double) -> DoorbellWait {
        let clock = ContinuousSystemClock()
        let deadline = clock.now() + idleSeconds
        while true {
            let remaining = deadline - clock.now()
            if remaining <= 0 { return .idle }
            if NamedPipe.waitReadable(requests, timeoutSeconds: min(remaining, NamedPipe.pathCheckIntervalSeconds)) {
                return .readable
            }
            if !NamedPipe.isStillAt(runtime.paths.requests, fd: requests) { return .pipeGone }
        }
    }

    /// One sync for every host that signalled. Between pages the sync looks at the request FIFO
    /// (one poll(2)): an `invalidate` or `shutdown` (SIGTERM) ends a long sync after its last commit
    /// instead of after its last page (R10, R43). Other doorbells that arrive meanwhile wait for the
    /// next round.
    private func sync(answering waiters: [Waiter]) async {
        var stopArrived = false
        let report = await runtime.runSync(
            engine: engine, session: session, waiters: waiters, maxSteps: .max,
            stopRequested: { [self] in
                guard NamedPipe.waitReadable(requests, timeoutSeconds: 0) else { return false }
                let arrived = runtime.drain(requests, into: &buffer)
                pending += arrived
                stopArrived = stopArrived || arrived.contains { $0.kind == .invalidate || $0.kind == .shutdown }
                return stopArrived
            })
        if stopArrived { endedSync = report }
        if report.error?.code == ProviderErrorCode.enumerationTimeout.rawValue {
            runtime.log("the enumerator timed out; ending the extension (a hung enumerator cannot be reused)")
            stopping = true
        }
    }

    /// One page or batch for each stepping host, unless an invalidation ended the sync.
    private func steps(_ waiters: [Waiter]) async {
        for waiter in waiters {
            if let endedSync {
                answer([waiter], with: endedSync)
                continue
            }
            _ = await runtime.runSync(engine: engine, session: session, waiters: [waiter], maxSteps: 1)
        }
    }

    /// Each probe's result, written where its host reads it.
    private func probes(_ probes: [DoorbellRound.Probe]) async {
        let paths = runtime.paths
        for probe in probes {
            let result = await SyncEngine.probe(
                probe.request, driver: session.driver, timeoutSeconds: configuration.pageTimeoutSeconds)
            let path = paths.tracesDirectory + "/" + probe.waiter.id + ".json"
            let written = (try? JSONEncoder().encode(result)).flatMap { try? SecureFile.replace(path, with: $0) } != nil
            session.persistState()
            ProviderLog.capTraces(in: paths.tracesDirectory)
            runtime.reply(probe.waiter, DoorbellReply(id: probe.waiter.id, ok: written, trace: written ? path : nil))
            if result.timedOut {
                runtime.log("the enumerator timed out during a probe; ending the extension")
                stopping = true
            }
        }
    }

    private func answer(_ waiters: [Waiter], with report: SyncReport) {
        for waiter in waiters {
            runtime.reply(waiter, DoorbellReply(id: waiter.id, ok: false, report: report))
        }
    }

    /// R17: the enumerator's invalidate(), then the extension's, within the time limit (R11); then
    /// every host still waiting is answered, so none times out on this process.
    private func invalidateAndAnswerEveryone() async {
        runtime.log("invalidating the enumerator and the extension")
        var invalidateError: SyncReport.ReportedError?
        // The session is only touched by this task (and, after a timeout, by the abandoned call,
        // which the process's exit ends); the box lets the calls race a deadline.
        let box = UncheckedSendableBox(session)
        let finished = await runtime.withDeadline(configuration.invalidateTimeoutSeconds) {
            await box.value.driver.invalidate()
            try? await box.value.invalidateExtension()
        }
        if !finished {
            let error = SyncReport.ReportedError(
                code: ProviderErrorCode.extensionInvalidateTimeout.rawValue, rule: FrameworkRule.r11.id,
                message:
                    "the extension's invalidate() did not return within \(configuration.invalidateTimeoutSeconds) s")
            runtime.log(error.message)
            invalidateError = error
        }
        // Whatever the extension changed during its invalidation: an iOS process ends with it persisted.
        session.persistState()
        // Under the doorbell lock, exclusively, as the idle exit drains: no host is mid-ring, so no
        // doorbell written after this last drain is lost with the pipe's close. A host that rings
        // once the lock is free finds no reader (or EPIPE) and launches the next provider. Waited
        // for briefly, not for the lock's usual time: a host also holds it (shared) while it waits
        // for this provider to leave (a pipe removed under it, `providerUnreachable`), and then this
        // exit must not wait for that host. A ring holds it for one write.
        let doorbellLock = try? FileLock(path: runtime.paths.doorbellLock)
        let lockedDoorbell =
            requestsOpen && (try? doorbellLock?.lock(.exclusive, timeout: Self.exitDoorbellLockSeconds)) != nil
        defer { if lockedDoorbell { doorbellLock?.unlock() } }
        pending += requestsOpen ? runtime.drain(requests, into: &buffer) : []
        for message in pending where message.reply == true {
            if let id = message.id { exitWaiters.append(Waiter(id: id, fd: runtime.openReply(id), trace: false)) }
        }
        for waiter in exitWaiters {
            runtime.reply(waiter, DoorbellReply(id: waiter.id, ok: invalidateError == nil, error: invalidateError))
        }
        if requestsOpen { close(requests) }
        runtime.log("exited")
    }
}
