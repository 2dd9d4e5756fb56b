import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc

/// Watches the system store while `signal --wait` waits: tells the client whether the sync
/// committed something (so its timeout counts silence only) and, once the sync has run for a
/// second, prints one progress line a second on stderr: "N of M" contacts or changes, M being the
/// total the system can know (``SyncProgressCounts``).
///
/// Cheap by design: each look is two `stat` calls; the store is read only when a line is printed,
/// identifiers only and incrementally (`refresh` reads just the journal lines appended since).
final class SyncProgressMonitor {
    private let storeDirectory: String
    private let output: CommandOutput
    // Monotonic: a wall-clock step must neither flood nor silence the progress lines.
    private let clock = ContinuousSystemClock()
    private let started: Double
    private let printsProgress: Bool
    private var lastLine: Double?
    private var signature: [Int]
    /// The store as read for progress lines: made at the first line, so a sync quicker than a
    /// second never makes the generic store (its first use costs a protocol conformance lookup, a
    /// tenth of a millisecond of every `signal --wait`; issue 27).
    private var reading: StoreReading?
    /// The changes committed since the signal: the journal as it was before it, counted from its end.
    private var delivered: DeliveredChanges
    /// The app database's contacts (content) or pending changes plus those delivered (changes), once
    /// known; a double optional: nil until computed, then the total or nil for unknown.
    private var contentTotal: Int??
    private var changesTotal: Int??
    /// Whether this sync is a content enumeration (once seen, for the rest of it).
    private var isContent = false
    private let appGroup: AppGroup
    private let configurationPath: String

    /// The system store and what was read of it.
    private final class StoreReading {
        let store: SystemStore
        var state: StoreState<SyncState>?

        init(directory: String) {
            store = SystemStore(directory: directory, retainsContacts: false, lazySnapshot: true)
            state = try? store.load()
        }

        /// Reads the journal lines appended since the last read.
        func refresh() {
            guard var loaded = state else { return }
            try? store.refresh(&loaded)
            state = loaded
        }
    }

    init(paths: DomainPaths, output: CommandOutput) {
        storeDirectory = paths.systemStore
        self.output = output
        started = clock.now()
        printsProgress = ProgressPolicy.enabled(for: output)
        appGroup = paths.appGroup
        configurationPath = paths.configuration
        let signature = Self.signature(of: paths.systemStore)
        self.signature = signature
        // The journal's size and inode before the sync, from the stat just made (no extra cost).
        delivered = DeliveredChanges(
            journal: JournalFiles.journal(in: paths.systemStore), inode: UInt64(max(signature[7], 0)),
            size: max(signature[4], 0))
    }

    private func currentSignature() -> [Int] { Self.signature(of: storeDirectory) }

    /// Size, modification time and inode of the store's files (snapshot, then journal): any commit
    /// changes one of them.
    private static func signature(of storeDirectory: String) -> [Int] {
        [JournalFiles.snapshot(in: storeDirectory), JournalFiles.journal(in: storeDirectory)].flatMap { path -> [Int] in
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1, -1, -1, -1] }
            return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
        }
    }

    /// Whether the sync advanced since the last call; prints progress when due.
    func check() -> Bool {
        let now = clock.now()
        let current = currentSignature()
        let advanced = current != signature
        signature = current
        guard printsProgress, now - started >= 1, now - (lastLine ?? -.infinity) >= 1
        else {
            return advanced
        }
        lastLine = now
        // Read once, after a second, so a quick sync never pays for it; incrementally afterwards.
        let reading: StoreReading
        if let existing = self.reading {
            existing.refresh()
            reading = existing
        } else {
            reading = StoreReading(directory: storeDirectory)
            self.reading = reading
        }
        // The pages or batches are the journal entries written since the signal, exactly; read after
        // the store (whose first read takes a while), so none of its pages is missing from them.
        delivered.refresh()
        output.err(
            "syncing… " + progressText(state: reading.state, commits: delivered.entries)
                + String(format: " (%.0f s)", now - started))
        return advanced
    }

    /// "content enumeration: N of M contacts …" or "change enumeration: N of M changes …".
    private func progressText(state: StoreState<SyncState>?, commits: Int) -> String {
        let syncState = state?.meta ?? .initial
        // One sync runs one enumeration, known from its first commit (the state moves to changes with
        // a content enumeration's last page); a journal replaced since the signal is a content
        // enumeration started over after an expired anchor (R27, R38).
        isContent =
            isContent || delivered.journalReplaced
            || (delivered.firstPhase ?? syncState.phase) == .content
        switch isContent ? SyncState.Phase.content : .changes {
        case .content:
            let count = state?.count ?? 0
            if contentTotal == nil {
                contentTotal = .some(
                    SyncProgressCounts.appContactCount(appGroup: appGroup, configuration: configurationPath))
            }
            let total = SyncProgressCounts.total(contentTotal ?? nil, delivered: count)
            return SyncProgressCounts.text(phase: .content, delivered: count, total: total, commits: commits)
        case .changes:
            if changesTotal == nil {
                let pending = syncState.anchor.flatMap {
                    SyncProgressCounts.pendingAppChanges(
                        appGroup: appGroup, configuration: configurationPath, after: $0)
                }
                changesTotal = .some(pending.map { $0 + delivered.count })
            }
            let total = SyncProgressCounts.total(changesTotal ?? nil, delivered: delivered.count)
            return SyncProgressCounts.text(phase: .changes, delivered: delivered.count, total: total, commits: commits)
        }
    }
}
