import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc

/// Watches the system store while `signal --wait` waits: tells the client whether the sync
/// committed something (so its timeout counts silence only) and, once the sync has run for a
/// second, prints one progress line a second on stderr.
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

    /// The system store and what was read of it.
    private final class StoreReading {
        let store: SystemStore
        var state: StoreState<SyncState>?
        let startSeq: Int?

        init(directory: String) {
            store = SystemStore(directory: directory, retainsContacts: false, lazySnapshot: true)
            state = try? store.load()
            startSeq = state?.headSeq
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
        signature = []
        signature = currentSignature()
    }

    /// Size, modification time and inode of the store's files: any commit changes one of them.
    private func currentSignature() -> [Int] {
        [JournalFiles.snapshot(in: storeDirectory), JournalFiles.journal(in: storeDirectory)].flatMap { path -> [Int] in
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1, -1, -1, -1] }
            return [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
        }
    }

    /// Commits seen (as file changes) before the store was first read; looks are ≤ 0.25 s apart, so
    /// this counts every page or batch of a sync slow enough to need progress.
    private var commitsBeforeFirstRead = 0

    /// Whether the sync advanced since the last call; prints progress when due.
    func check() -> Bool {
        let now = clock.now()
        let current = currentSignature()
        let advanced = current != signature
        signature = current
        if advanced, reading == nil { commitsBeforeFirstRead += 1 }
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
        let state = reading.state
        let commits = commitsBeforeFirstRead + max(0, (state?.headSeq ?? 0) - (reading.startSeq ?? 0))
        output.err(
            String(
                format: "syncing… %ld commits so far (pages or batches), %ld contacts in the system store (%.0f s)",
                commits, state?.count ?? 0, now - started))
        return advanced
    }
}
