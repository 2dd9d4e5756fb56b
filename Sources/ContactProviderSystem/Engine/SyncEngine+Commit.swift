import AppGroupStore
import CommandLineToolkit
import Foundation
import Synchronization

// Committing what a page or batch delivered (R24, R34), overlapping its fdatasync with the next steps,
// collecting late calls, and the race between a provider's call and its deadline.
extension SyncEngine {
    /// Commits a page or batch (R24, R34). `overlapped`: another step follows, so the page need not
    /// be durable before the provider enumerates it: its `fdatasync` runs meanwhile, or is shared
    /// with the pages after it (``JournalGroupCommit``: at most ``JournalHoles`` allows is not yet
    /// durable, and the report waits for all of it). The watchers hear of each page once it is durable.
    ///
    /// `upsertsAreDistinct`: the caller checked no identifier comes twice (a content page, R19's check).
    func commit(
        upsert: [ContactRecord], delete: [String], meta: SyncState, itemsLimit: Int, overlapped: Bool = false,
        upsertsAreDistinct: Bool = false
    ) throws {
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
        defer { announceDurableCommits() }
        do {
            try saveFault?()
            written = try store.append(
                upsert: upsert, delete: delete, meta: meta, to: &state, upsertsAreDistinct: upsertsAreDistinct,
                groupCommit: groupCommit, durableNow: !overlapped)
        } catch let lost as JournalGroupCommit.EarlierEntriesLost {
            // Pages committed before this one were taken back: not a failure of this save, so it is not
            // retried; the sync ends with the error, and the next one resumes from what is durable.
            state = try store.load()
            throw lost.error
        } catch {
            throw SaveFailure(reason: "\(error)")
        }
        guard written else {
            state = try store.load()
            throw SyncFailure.provider(
                .extensionInvalidated,
                message: "the domain was reset or disabled while the enumeration was running (R43)")
        }
    }

    /// Waits until every overlapped commit is durable (or taken back), then tells the watchers.
    func finishPendingSync() throws {
        defer { announceDurableCommits() }
        do {
            try groupCommit.finish(in: store)
        } catch let lost as JournalGroupCommit.EarlierEntriesLost {
            // Not durable: taken back, so the failed pages are neither readable nor resumed from.
            state = try store.load()
            throw lost.error
        }
    }

    /// One event per page or batch made durable since the last call, in order.
    private func announceDurableCommits() {
        guard let durable = groupCommit.takeNewlyDurable() else { return }
        for seq in durable.seqs {
            onEvent(.committed(seq: seq, generation: durable.generation))
        }
    }

    /// A thrown error as the report states it.
    static func failure(_ error: any Error) -> SyncFailure {
        switch error {
        case let failure as SyncFailure: failure
        case let error as StoreError: .storage(error.description)
        default: .storage("\(error)")
        }
    }

    func collectLateCalls() -> [String] {
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
    func invoke<Payload, End>(
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
