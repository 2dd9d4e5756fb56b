import AppGroupStore
import CommandLineToolkit
import Foundation
import Synchronization

/// The simulated Contacts daemon for one domain: it drives the enumerator and commits what the
/// provider delivers to the system store.
///
/// One `sync` is what happens after `signalEnumerator()` (R12):
/// - no content enumeration completed yet (or after reset/expiry): `enumerateContent` from
///   `.initialPage` or from the last committed page, page after page, until
///   `didFinishEnumeratingContent(upTo:)`;
/// - otherwise `enumerateChanges` from the last committed anchor while `moreComing` is true.
///
/// Each page or batch commits in one durable journal write together with the position to resume
/// from (R24, R34). Everything a system can see of the rules in docs/architecture.md's table
/// ("What the system enforces") is enforced.
///
/// The engine knows nothing of who listens: each commit and each store reset it makes is handed to
/// `onEvent` (the provider runtime passes `WatchChannel.notifier(for:)`, so `contacts-host watch`
/// hears it), which keeps the module's folders one way (Engine ← Pipes ← Runtime, Host).
public final class SyncEngine {
    /// What the engine did to the system store, for whoever watches it.
    public enum Event: Equatable, Sendable {
        /// A page or batch was committed as journal entry `seq` of store generation `generation`.
        case committed(seq: Int, generation: String)
        /// The engine emptied the system store (an expired page or anchor); it now has `generation`.
        case reset(generation: String)
    }

    /// The domain's files.
    package let paths: DomainPaths
    let clock: any SystemClock
    let store: SystemStore
    let onEvent: (Event) -> Void
    var state: StoreState<SyncState> = .empty
    var pendingLateCalls: [String] = []
    /// The commits' shared `fdatasync`s: a page's runs while the provider enumerates the next one.
    package let groupCommit = JournalGroupCommit()
    /// The `fdatasync` of overlapped commits (tests pass one that fails or blocks).
    package var journalSync: PendingSync.SyncFunction {
        get { groupCommit.sync }
        set { groupCommit.sync = newValue }
    }
    /// Called before each page or batch is written; what it throws is that save's failure (tests
    /// make saves fail to see the system's retry, ``SaveRetry``).
    package var saveFault: (() throws -> Void)?
    var activeObservers: [any LateCallSource] = []

    /// An engine for the domain at `paths`; `onEvent` hears every commit and reset it makes, on the
    /// syncing task, right after the write is durable (keep it short: it is on the commit path). The
    /// default tells nobody: an engine in a test has no watchers to ring.
    public init(
        paths: DomainPaths, clock: any SystemClock = ContinuousSystemClock(),
        onEvent: @escaping (Event) -> Void = { _ in }
    ) {
        self.paths = paths
        self.clock = clock
        self.onEvent = onEvent
        store = SystemStore(directory: paths.systemStore, retainsContacts: false, keepsOrder: false)
    }

    /// The system store as this engine last saw it (which identifiers exist and the sync state; no
    /// values, no positions).
    package var systemState: StoreState<SyncState> { state }

    /// How the next sync will start, read from the committed state.
    public func pendingOperation() throws -> PendingOperation {
        try refresh()
        return Self.pendingOperation(for: state.meta ?? .initial)
    }

    /// The next operation for a committed state.
    package static func pendingOperation(for syncState: SyncState) -> PendingOperation {
        switch syncState.phase {
        case .content: return .contentPage(syncState.nextPage ?? .initial)
        case .changes: return .changes(from: syncState.anchor ?? .initial)
        }
    }

    /// One step the system would take next (step mode lists these).
    public enum PendingOperation: Equatable, Sendable, CustomStringConvertible {
        case contentPage(SyncPosition)
        case changes(from: SyncPosition)

        public var description: String {
            switch self {
            case .contentPage(let page): return "content page \(page)"
            case .changes(let anchor): return "changes from anchor \(anchor)"
            }
        }
    }

    func refresh() throws {
        if state.generation.isEmpty {
            state = try store.load()
            if state.generation.isEmpty {
                try store.reset(meta: .initial)
                state = try store.load()
            }
        } else {
            try store.refresh(&state)
        }
    }

    /// Runs one sync to completion (or failure) and writes `last-sync.json`.
    ///
    /// - Parameters:
    ///   - driver: the provider's enumerator.
    ///   - transcript: receives one line per call (for `--trace`, step mode and the kit).
    ///   - maxSteps: stop after this many pages/batches (step mode runs one at a time).
    ///   - stopRequested: asked before every page or batch after the first; true when the app
    ///     called `invalidate()` (or the process is stopping) during the sync. The sync then ends
    ///     with `extensionInvalidated` (R10, R43), keeping the pages or batches it committed.
    public func sync(
        driver: any EnumeratorDriver, transcript: Transcript = Transcript(), maxSteps: Int = .max,
        stopRequested: () -> Bool = { false }
    ) async -> SyncReport {
        let started = clock.now()
        let startedAt = Date().timeIntervalSince1970
        var report = SyncReport(enumeration: "content")
        callMilliseconds = []
        historySteps = []
        omittedHistorySteps = 0
        var callLimitSeconds = DomainConfiguration().pageTimeoutSeconds
        defer { callMilliseconds = [] }
        report.warnings = collectLateCalls()
        do {
            let configuration = try loadConfiguration()
            callLimitSeconds = configuration.pageTimeoutSeconds
            guard configuration.enabled else { throw SyncFailure.domainDisabled }
            try refresh()
            report.enumeration = (state.meta ?? .initial).phase == .content ? "content" : "changes"
            var restarts = 0
            var steps = 0
            var saveRetries = 0
            loop: while steps < maxSteps {
                if steps > 0, stopRequested() {
                    transcript.record("system: invalidate() arrived during the sync → ending it after the last commit")
                    throw SyncFailure.provider(
                        .extensionInvalidated,
                        message: "the app called invalidate() while the enumeration was running; what was committed "
                            + "stays and the next signal resumes from there (R10, R43)")
                }
                steps += 1
                let syncState = state.meta ?? .initial
                let savedBefore = report.updated + report.deleted
                let outcome: StepOutcome
                do {
                    switch syncState.phase {
                    case .content:
                        outcome = try await runContentPage(
                            syncState.nextPage ?? .initial, driver: driver, configuration: configuration,
                            transcript: transcript, report: &report)
                    case .changes:
                        outcome = try await runChangeBatch(
                            syncState.anchor ?? .initial, driver: driver, configuration: configuration,
                            transcript: transcript, report: &report)
                    }
                    saveRetries = 0
                    // iOS pauses after a save, in proportion to the items saved (SavePacing; off by default).
                    let saved = report.updated + report.deleted - savedBefore
                    let pause = SavePacing.seconds(forItems: saved, itemsPerSecond: configuration.paceItemsPerSecond)
                    if pause > 0 {
                        transcript.record(SavePacing.line(seconds: pause, items: saved))
                        try await clock.sleep(seconds: Double(pause))
                    }
                } catch let failure as SaveFailure {
                    // The page or anchor is asked for again, as iOS does (SaveRetry), from the state on disk.
                    let content = syncState.phase == .content
                    let limit = content ? SaveRetry.maxPageRetries : SaveRetry.maxSyncAnchorRetries
                    guard saveRetries < limit else {
                        throw SaveRetry.failure(content: content, retries: saveRetries, reason: failure.reason)
                    }
                    saveRetries += 1
                    steps -= 1
                    transcript.record(SaveRetry.retryLine(content: content, reason: failure.reason))
                    state = try store.load()
                    continue
                }
                switch outcome {
                case .continue:
                    continue
                case .done:
                    break loop
                case .expired(let code):
                    // R27 / R38: drop everything the domain provided and start content over.
                    restarts += 1
                    if restarts > 1 {
                        throw SyncFailure.provider(
                            code, message: "the provider reported \(code.rawValue) again right after a restart")
                    }
                    transcript.record(
                        "system: \(code.rawValue) → dropping the system store, restarting content enumeration")
                    try finishPendingSync()
                    try store.reset(meta: .initial)
                    state = try store.load()
                    onEvent(.reset(generation: state.generation))
                    report.restarted = true
                }
            }
        } catch {
            report.error = .init(Self.failure(error))
        }
        // Every overlapped commit is durable before anyone hears of this sync (also after a failure).
        do {
            try finishPendingSync()
        } catch {
            if report.error == nil { report.error = .init(Self.failure(error)) }
        }
        report.systemCount = state.count
        // What the extension did that is the app's (R13), noted where it happened.
        report.warnings += ExtensionDiagnostics.drain()
        let final = state.meta ?? .initial
        report.anchor = final.phase == .changes ? final.anchor : nil
        report.nextPage = final.phase == .content ? final.nextPage : nil
        report.durationMs = (clock.now() - started) * 1000
        report.callMilliseconds = callMilliseconds
        // A run of idle syncs (nothing changed, no error) is recorded once: rewriting the report
        // file is most of an idle signal's cost.
        let idle =
            report.error == nil && report.updated == 0 && report.deleted == 0 && report.pages == 0 && !report.restarted
        if !idle {
            // The history records what changed, as the report file does (issue 45); failing to
            // write it fails nothing: the sync's commits are durable already.
            let entry = SyncHistoryEntry(
                report: report, startedAt: startedAt, steps: historySteps, omittedSteps: omittedHistorySteps,
                callLimitSeconds: callLimitSeconds)
            do {
                try historyFile.append(entry)
            } catch {
                report.warnings.append("the sync history \(paths.syncHistory) could not be written: \(error)")
            }
        }
        historySteps = []
        if !(idle && lastSavedWasIdle) {
            // The call times belong to the sync's answer (a trace), not to what `status` shows later.
            var saved = report
            saved.callMilliseconds = nil
            try? Self.saveReport(saved, to: paths.lastSync)
        }
        lastSavedWasIdle = idle
        return report
    }

    /// Whether the system store's journal has grown past its snapshot (two `stat`s).
    package var isCompactionDue: Bool { store.isCompactionDue() }

    /// Folds the system store's journal into its snapshot when it has grown past it (the runtime
    /// calls this after answering, so no host waits for it). Abandoned, changing nothing, as soon
    /// as `shouldStop` says a doorbell is waiting; the next idle moment starts it again. Returns
    /// whether it compacted.
    @discardableResult
    package func compactIfNeeded(shouldStop: () -> Bool = { false }) -> Bool {
        (try? store.compactIfNeeded(keeping: &state, shouldStop: shouldStop)) ?? false
    }

    var configurationCache: (data: Data, configuration: DomainConfiguration)?
    var lastSavedWasIdle = false
    /// The domain's sync history, which every finished sync that did something is appended to.
    private lazy var historyFile = SyncHistoryFile(paths: paths)
    /// The running sync's pages or batches, for its history line.
    var historySteps: [SyncHistoryEntry.Step] = []
    /// Steps of the running sync past ``SyncHistoryEntry/maxSteps``.
    var omittedHistorySteps = 0

    /// Notes one page or batch of the running sync for its history line.
    func recordStep(
        _ kind: String, updated: Int, deleted: Int = 0, position: SyncPosition?, expired: ProviderErrorCode? = nil
    ) {
        guard historySteps.count < SyncHistoryEntry.maxSteps else {
            omittedHistorySteps += 1
            return
        }
        historySteps.append(
            SyncHistoryEntry.Step(
                kind: kind, updated: updated, deleted: deleted, position: position.map { "\($0)" },
                milliseconds: callMilliseconds.last ?? 0, expired: expired?.rawValue))
    }
    /// The calls of the running sync, timed (``SyncReport/callMilliseconds``).
    var callMilliseconds: [Double] = []

    /// The domain's configuration, decoded again only when the file's bytes changed.
    func loadConfiguration() throws -> DomainConfiguration {
        guard let data = try SecureFile.readIfPresent(paths.configuration) else { return DomainConfiguration() }
        if let cached = configurationCache, cached.data == data { return cached.configuration }
        let configuration = try DomainConfiguration.load(from: paths.configuration)
        configurationCache = (data, configuration)
        return configuration
    }

    /// Empties the system store and forgets the sync state (`reset()` / `disable()`, R8, R9).
    package func dropSystemStore() throws {
        try store.reset(meta: .initial)
        state = try store.load()
    }
}

/// Observers that can receive calls after their enumerate method returned.
protocol LateCallSource {
    func drainLateCalls() -> [String]
}
