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
    private let clock: any SystemClock
    private let store: SystemStore
    private let onEvent: (Event) -> Void
    private var state: StoreState<SyncState> = .empty
    private var pendingLateCalls: [String] = []
    /// The page or batch whose `fdatasync` is still running (it had a next step to overlap with).
    /// The last overlapped commit: its sync, and where its entry lies in the journal (taken back if
    /// the sync fails).
    private var pendingSync: (sync: PendingSync, seq: Int, generation: String, start: Int, end: Int, inode: UInt64)?
    /// The `fdatasync` of overlapped commits (tests pass one that fails or blocks).
    package var journalSync: PendingSync.SyncFunction = PendingSync.fdatasync
    /// Called before each page or batch is written; what it throws is that save's failure (tests
    /// make saves fail to see the system's retry, ``SaveRetry``).
    package var saveFault: (() throws -> Void)?
    private var activeObservers: [any LateCallSource] = []

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

    private func refresh() throws {
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
        // The last overlapped commit is durable before anyone hears of this sync (also after a failure).
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
        (try? store.compactIfNeeded(shouldStop: shouldStop)) ?? false
    }

    private var configurationCache: (data: Data, configuration: DomainConfiguration)?
    private var lastSavedWasIdle = false
    /// The domain's sync history, which every finished sync that did something is appended to.
    private lazy var historyFile = SyncHistoryFile(paths: paths)
    /// The running sync's pages or batches, for its history line.
    private var historySteps: [SyncHistoryEntry.Step] = []
    /// Steps of the running sync past ``SyncHistoryEntry/maxSteps``.
    private var omittedHistorySteps = 0

    /// Notes one page or batch of the running sync for its history line.
    private func recordStep(
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
    private var callMilliseconds: [Double] = []

    /// The domain's configuration, decoded again only when the file's bytes changed.
    private func loadConfiguration() throws -> DomainConfiguration {
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

    private enum StepOutcome {
        case `continue`
        case done
        case expired(ProviderErrorCode)
    }

    private func runContentPage(
        _ page: SyncPosition, driver: any EnumeratorDriver, configuration: DomainConfiguration,
        transcript: Transcript, report: inout SyncReport
    ) async throws -> StepOutcome {
        let observer = ContentObserverCore(
            suggestedPageSize: configuration.pageSize, transcript: transcript,
            pause: MidCallPause(runDirectory: paths.runDirectory))
        let (result, end) = try await invoke(
            "enumerateContent(in: \(page))", log: observer.log, unfinishedRule: .r20,
            timeout: configuration.pageTimeoutSeconds, transcript: transcript
        ) {
            await driver.enumerateContent(in: page, observer: observer)
        }
        try checkSize(
            result.items.count, suggested: configuration.pageSize, cap: configuration.hardCapMultiplier,
            rule: .r21, what: "page", report: &report)
        let ids = result.items.map(\.identifier)
        if Set(ids).count != ids.count {
            report.warnings.append(
                "\(FrameworkRule.r19): a page delivered the same identifier twice; the last value wins")
        }
        switch end {
        case .error(let code, let message):
            let result = try outcome(ofError: code, message: message, expiredAs: .pageExpired)
            recordStep("page", updated: 0, position: nil, expired: .pageExpired)
            return result
        case .page(let next):
            guard !next.generationMarker.isEmpty else {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingPage(upTo:) was given an empty generation marker")
            }
            if page != .initial, next.generationMarker != page.generationMarker {
                throw SyncFailure.ruleViolation(
                    .r23,
                    message:
                        "the generation marker changed during content enumeration (page \(page) → next page \(next))")
            }
            if next == page {
                throw SyncFailure.ruleViolation(
                    .r22,
                    message:
                        "didFinishEnumeratingPage(upTo:) returned the current page \(page); the enumeration would never end"
                )
            }
            try commit(
                upsert: result.items, delete: [], meta: SyncState(phase: .content, nextPage: next),
                itemsLimit: configuration.itemsLimit, overlapped: true)
            report.pages += 1
            report.updated += result.items.count
            recordStep("page", updated: result.items.count, position: next)
            return .continue
        case .content(let marker):
            guard !marker.isEmpty else {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingContent(upTo:) was given an empty generation marker")
            }
            if page != .initial, marker != page.generationMarker {
                throw SyncFailure.ruleViolation(
                    .r23, message: "didFinishEnumeratingContent(upTo:) used a marker different from the pages' marker")
            }
            // R25: the first change enumeration starts at (marker, 0).
            let anchor = SyncPosition(generationMarker: marker, offset: 0)
            try commit(
                upsert: result.items, delete: [], meta: SyncState(phase: .changes, anchor: anchor),
                itemsLimit: configuration.itemsLimit)
            report.pages += 1
            report.updated += result.items.count
            recordStep("page", updated: result.items.count, position: anchor)
            return .done
        }
    }

    private func runChangeBatch(
        _ anchor: SyncPosition, driver: any EnumeratorDriver, configuration: DomainConfiguration,
        transcript: Transcript, report: inout SyncReport
    ) async throws -> StepOutcome {
        let observer = ChangeObserverCore(
            suggestedBatchSize: configuration.batchSize, transcript: transcript,
            pause: MidCallPause(runDirectory: paths.runDirectory))
        let (result, end) = try await invoke(
            "enumerateChanges(startingAt: \(anchor))", log: observer.log, unfinishedRule: .r30,
            timeout: configuration.pageTimeoutSeconds, transcript: transcript
        ) {
            await driver.enumerateChanges(from: anchor, observer: observer)
        }
        try checkSize(
            result.count, suggested: configuration.batchSize, cap: configuration.hardCapMultiplier,
            rule: .r31, what: "batch", report: &report)
        switch end {
        case .error(let code, let message):
            let result = try outcome(ofError: code, message: message, expiredAs: .changeAnchorExpired)
            recordStep("batch", updated: 0, position: nil, expired: .changeAnchorExpired)
            return result
        case .batch(let next, let moreComing):
            if moreComing, next == anchor {
                throw SyncFailure.ruleViolation(
                    .r40,
                    message:
                        "moreComing is true but the anchor did not advance from \(anchor); the system would loop forever"
                )
            }
            if !moreComing, next == anchor, result.count > 0 {
                report.warnings.append(
                    "\(FrameworkRule.r40): a batch with \(counted(result.count, "change")) returned the starting anchor \(anchor)"
                )
            }
            // Apply in call order (R32 upsert, R33 delete; unknown ids are a no-op) and commit once.
            var fold = ChangeFold()
            for change in result.changes {
                switch change {
                case .update(let records):
                    for item in records { fold.upsert(item) }
                case .delete(let identifiers):
                    for identifier in identifiers where state.contains(identifier) || fold.isUpserted(identifier) {
                        fold.delete(identifier)
                    }
                }
            }
            let upsertList = fold.updated
            let deleteList = fold.deleted
            if upsertList.isEmpty, deleteList.isEmpty, next == anchor {
                // Nothing changed and the anchor stays: there is nothing to commit (and no fsync to pay).
                report.batches += 1
                recordStep("batch", updated: 0, position: nil)
                return moreComing ? .continue : .done
            }
            try commit(
                upsert: upsertList, delete: deleteList, meta: SyncState(phase: .changes, anchor: next),
                itemsLimit: configuration.itemsLimit, overlapped: moreComing)
            report.batches += 1
            report.updated += upsertList.count
            report.deleted += deleteList.count
            recordStep("batch", updated: upsertList.count, deleted: deleteList.count, position: next)
            return moreComing ? .continue : .done
        }
    }

    /// A page or batch that ended with an error: either expiry (R27, R38: the system drops its
    /// contacts and restarts content enumeration, reporting `expiredAs`), or the sync's failure.
    private func outcome(
        ofError code: ProviderErrorCode?, message: String, expiredAs expiry: ProviderErrorCode
    ) throws -> StepOutcome {
        if code == .pageExpired || code == .changeAnchorExpired { return .expired(expiry) }
        if let code { throw SyncFailure.provider(code, message: message) }
        throw SyncFailure.providerReported(message)
    }

    private func checkSize(
        _ count: Int, suggested: Int, cap: Int, rule: FrameworkRule, what: String, report: inout SyncReport
    ) throws {
        if count > suggested.multipliedReportingOverflow(by: cap).partialValue {
            throw SyncFailure.ruleViolation(
                rule,
                message: "a \(what) of \(counted(count, "item")) is more than \(cap)× the suggested size \(suggested)")
        }
        if count > suggested {
            report.warnings.append(
                "\(rule): a \(what) of \(counted(count, "item")) exceeds the suggested size \(suggested)")
        }
    }

    /// Commits a page or batch (R24, R34). `overlapped`: another step follows, so the `fdatasync`
    /// runs while the provider enumerates it; every commit first waits for the one before, so at most
    /// the last written page is not yet durable (see ``PendingSync``).
    private func commit(
        upsert: [ContactRecord], delete: [String], meta: SyncState, itemsLimit: Int, overlapped: Bool = false
    ) throws {
        try finishPendingSync()
        // Counted (one hash per contact) only when the page could reach the limit even if all of it
        // were new; counted, not filtered: a filtered copy of a page retains every field of every record.
        if state.count + upsert.count > itemsLimit,
            state.count + upsert.reduce(0, { $0 + (state.contains($1.identifier) ? 0 : 1) }) - delete.count
                > itemsLimit
        {
            throw SyncFailure.provider(
                .itemsLimitReached, message: "committing would hold more than \(itemsLimit) contacts (R42)")
        }
        // A reset or disable by the host replaces the store's generation: the page in flight is void (R43).
        let written: Bool
        do {
            try saveFault?()
            if overlapped {
                let start = state.journalOffset
                let pending = try store.appendStartingSync(
                    upsert: upsert, delete: delete, meta: meta, to: &state, sync: journalSync)
                if let pending {
                    pendingSync = (
                        pending, state.headSeq, state.generation, start, state.journalOffset, state.journalInode
                    )
                }
                written = pending != nil
            } else {
                written = try store.append(upsert: upsert, delete: delete, meta: meta, to: &state)
            }
        } catch {
            throw SaveFailure(reason: "\(error)")
        }
        guard written else {
            state = try store.load()
            throw SyncFailure.provider(
                .extensionInvalidated,
                message: "the domain was reset or disabled while the enumeration was running (R43)")
        }
        if !overlapped {
            onEvent(.committed(seq: state.headSeq, generation: state.generation))
        }
    }

    /// Waits until the last overlapped commit is durable, then tells the watchers about it.
    private func finishPendingSync() throws {
        guard let pending = pendingSync else { return }
        pendingSync = nil
        do {
            try pending.sync.wait()
        } catch {
            // Not durable: take the entry back, so the failed page is not readable nor resumed from.
            if try store.takeBackUnsyncedEntry(
                start: pending.start, end: pending.end, inode: pending.inode, generation: pending.generation)
            {
                state = try store.load()
            }
            throw error
        }
        onEvent(.committed(seq: pending.seq, generation: pending.generation))
    }

    /// A thrown error as the report states it.
    private static func failure(_ error: any Error) -> SyncFailure {
        switch error {
        case let failure as SyncFailure: failure
        case let error as StoreError: .storage(error.description)
        default: .storage("\(error)")
        }
    }

    private func collectLateCalls() -> [String] {
        var late: [String] = []
        for observer in activeObservers {
            late.append(contentsOf: observer.drainLateCalls())
        }
        activeObservers.removeAll()
        return late.map { "\(FrameworkRule.r20): observer call after the enumerate method had returned: \($0)" }
    }

    /// Calls one enumerator method with the page/batch time limit (R41), recording it in the
    /// transcript; afterwards the observer accepts no more calls (late ones are reported, R20).
    /// Returns what the observer recorded and its terminal call; a misuse it recorded, or no terminal
    /// call at all (`unfinishedRule`: R20 for pages, R30 for batches), fails the step.
    private func invoke<Payload, End>(
        _ call: String, log: ObserverCallLog<Payload, End>, unfinishedRule: FrameworkRule, timeout: Double,
        transcript: Transcript, _ operation: @escaping @Sendable () async -> Void
    ) async throws -> (recorded: ObserverCallLog<Payload, End>.State, end: End) {
        transcript.record("→ \(call)")
        let pausedBefore = DeadlineWatchdog.shared.pausedSeconds
        let started = clock.now()
        let finished = await Self.race(timeout, clock: clock, operation)
        activeObservers.append(log)
        let paused = DeadlineWatchdog.shared.pausedSeconds - pausedBefore
        callMilliseconds.append(max(0, clock.now() - started - paused) * 1000)
        if paused > 0 {
            // Said in the trace, so a developer sees why a call that took minutes did not time out.
            transcript.record(
                "  paused \(String(format: "%.1f", paused)) s: stopped by a debugger, not counted against the limit (R41)"
            )
        }
        transcript.record(finished ? "← returned" : "← timed out")
        guard finished else {
            throw SyncFailure.provider(.enumerationTimeout, message: "\(call) did not finish within \(timeout) s (R41)")
        }
        let recorded = log.close()
        if let violation = recorded.violations.first { throw violation }
        guard let end = recorded.end else {
            throw SyncFailure.ruleViolation(unfinishedRule, message: UnfinishedCall.message(call, rule: unfinishedRule))
        }
        return (recorded, end)
    }

    /// Runs `operation`, returning false if it has not finished after `seconds` (``Deadline/race(seconds:clock:start:_:)``).
    ///
    /// The operation cannot be cancelled from outside (the provider's code may ignore
    /// cancellation), so on timeout it is abandoned; the runtime then ends the provider process.
    static func race(
        _ seconds: Double, clock: any SystemClock, _ operation: @escaping @Sendable () async -> Void
    ) async -> Bool {
        if case .timedOut = await Deadline.race(seconds: seconds, clock: clock, operation) { return false }
        return true
    }

    static func saveReport(_ report: SyncReport, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(report)
        data.append(UInt8(ascii: "\n"))
        // Durable: without the fsync a power cut can leave an empty file, which `status` cannot read.
        // Idle syncs are not recorded (see `sync`), so the cost falls on syncs that committed something.
        try SecureFile.replace(path, with: data)
    }

    /// The report of the last sync, if any.
    public static func lastReport(paths: DomainPaths) throws -> SyncReport? {
        guard let data = try SecureFile.readIfPresent(paths.lastSync) else { return nil }
        do {
            return try JSONDecoder().decode(SyncReport.self, from: data)
        } catch {
            throw StoreError.malformed(
                path: paths.lastSync, line: 1,
                reason: LineCoding.reason(error)
                    + " (a report, not state: `contacts-host doctor --repair` moves it aside)")
        }
    }
}

/// Observers that can receive calls after their enumerate method returned.
protocol LateCallSource {
    func drainLateCalls() -> [String]
}
