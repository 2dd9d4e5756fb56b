import AppGroupStore
import ContactProviderSystem
import Foundation
import Glibc

// P3 (the first full sync, in process and through the CLI) with its references, and P6 (the first
// signal after it), at one size.
extension SizeRun {
    /// Measures P3 and P6 on `group`'s app database of `contacts` (the system store empty), leaving
    /// the system store synced; returns the seed demo's full sync and re-send (nil above `seedLimit`).
    func measureFullSync(group: AppGroup, client: SystemClient, contacts: [ContactRecord]) throws -> (
        sync: Double?, resend: Double?
    ) {
        // P3: first full sync (content enumeration, paged), against JSON encode + decode of the same N.
        // Traced, so the report carries each page's call time (the goal: no page near its limit).
        // Its CPU time too: the provider's (it runs the system) and the bench's, up to the end of
        // the compaction that follows (SQLite's copy, the reference, includes its checkpoint).
        var fullSyncs: [Double] = []
        var fullSyncCPU: [Double] = []
        var slowestCall = 0.0
        for index in 0..<repetitions.fullSyncs {
            if index > 0 { try client.reset() }
            // Every figure of P3 starts on a flushed disk (`sync`, not timed), as the raw floor's
            // and SQLite's copies do: the first sync runs right after the import, and the import's
            // writeback (219 MB at 1M) was counted in it, 1.5 s of a loaded 3.7 s.
            Glibc.sync()
            let providerBefore = client.providerPID
            let providerCPUBefore = providerBefore.flatMap(Measure.cpuMilliseconds(pid:)) ?? 0
            let ownCPUBefore = Measure.ownCPUMilliseconds()
            fullSyncs.append(
                try Measure.milliseconds {
                    let report = try signalAndCheck(client, expectCount: n, trace: true)
                    slowestCall = max(slowestCall, report.callMilliseconds?.max() ?? 0)
                })
            let ownCPU = Measure.ownCPUMilliseconds() - ownCPUBefore
            try waitForCompaction(client)
            guard let provider = client.providerPID, let providerCPU = Measure.cpuMilliseconds(pid: provider) else {
                throw BenchError("the provider exited after a full sync: its CPU time is unknown")
            }
            // A provider launched by this sync spent all its CPU time on it.
            fullSyncCPU.append(ownCPU + providerCPU - (provider == providerBefore ? providerCPUBefore : 0))
        }
        let providerPeak = client.providerPID.flatMap(Measure.peakRSS(pid:))
        var codingSamples: [Double] = []
        for _ in 0..<repetitions.fullSyncs {
            codingSamples.append(
                try Measure.milliseconds {
                    let data = try JSONEncoder().encode(contacts)
                    _ = try JSONDecoder().decode([ContactRecord].self, from: data)
                })
        }
        // The raw floor: reading the app's snapshot and writing the same bytes durably, nothing else.
        var rawSamples: [Double] = []
        for _ in 0..<repetitions.fullSyncs {
            Glibc.sync()
            rawSamples.append(
                try Measure.milliseconds {
                    try Measure.copyDurably(group.contactsDirectory + "/snapshot.jsonl", to: group.path + "/raw-floor")
                })
        }
        // SQLite's durable copy of the same rows (the app's snapshot), in CPU and wall time.
        var sqliteRuns: [Measure.Run] = []
        if let sqlite {
            log("n=\(n): P3 SQLite's durable copy (sqlite3 \(sqlite.version))")
            for _ in 0..<repetitions.fullSyncs {
                Glibc.sync()
                sqliteRuns.append(
                    try sqlite.copy(
                        snapshot: group.contactsDirectory + "/snapshot.jsonl", count: n,
                        database: group.path + "/sqlite-copy.db"))
            }
        }
        // The seed demo, ported as written, builds its list with one `@Published` append per contact
        // (each copies the array): quadratic, minutes at 100,000. It is measured up to `seedLimit`.
        let baselineFullSync: (sync: Double?, resend: Double?) = n <= Self.seedLimit ? try naiveFullSync() : (nil, nil)
        figures.append(
            Figure(
                id: "P3", path: "library", n: n, medianMs: Measure.median(fullSyncs),
                baselineMedianMs: baselineFullSync.sync,
                floorMs: Measure.median(rawSamples), peakRSSBytes: providerPeak,
                referenceMs: Measure.median(codingSamples), slowestCallMs: slowestCall,
                cpuMs: Measure.median(fullSyncCPU),
                note:
                    "reference = JSON encode+decode of the same contacts; floor = read + write the same bytes (fdatasync); each on a flushed disk (sync first, not timed); peak RSS = provider process; default settings, traced: slowestCallMs = the slowest page's call; cpuMs = the provider's and the bench's CPU time over the sync and the compaction after it"
            ))
        if let sqlite, !sqliteRuns.isEmpty {
            figures.append(
                Figure(
                    id: "P3", path: "sqlite", n: n, medianMs: Measure.median(sqliteRuns.map(\.milliseconds)),
                    cpuMs: Measure.median(sqliteRuns.map(\.cpuMilliseconds)), note: sqlite.description))
        }

        // P3 through the CLI: `signal --wait` on a fresh system store (a reset first, not timed).
        var cliFullSyncs: [Double] = []
        var firstSignals: [Double] = []
        var statusesWhileCompacting: [(ms: Double, duringCompaction: Bool)] = []
        var cliEnvironment = self.environment(group)
        cliEnvironment["CONTACTS_HOST_PEAK_RSS_FILE"] = nil
        for _ in 0..<repetitions.fullSyncs {
            try client.reset()
            Glibc.sync()
            let run = try Measure.spawn(
                [products + "/contacts-host", "signal", "--wait", "--timeout", "600"], environment: cliEnvironment)
            guard run.exitCode == 0 else {
                throw BenchError("contacts-host signal --wait failed (exit \(run.exitCode))")
            }
            cliFullSyncs.append(run.milliseconds)
            if wants("S2") {
                statusesWhileCompacting += try statusWhileCompacting(client: client, environment: cliEnvironment)
            }
            // P6: the signal right after it, which used to wait behind the system store's compaction.
            let next = try Measure.spawn(
                [products + "/contacts-host", "signal", "--wait", "--timeout", "600"], environment: cliEnvironment)
            guard next.exitCode == 0 else {
                throw BenchError("contacts-host signal --wait after a full sync failed (exit \(next.exitCode))")
            }
            firstSignals.append(next.milliseconds)
        }
        try signalAndCheck(client, expectCount: n)
        figures.append(
            Figure(
                id: "P3", path: "cli", n: n, medianMs: Measure.median(cliFullSyncs),
                referenceMs: Measure.median(fullSyncs),
                note: "reference = the in-process full sync of the same run"))
        if !statusesWhileCompacting.isEmpty {
            let during = statusesWhileCompacting.filter(\.duringCompaction).count
            figures.append(
                Figure(
                    id: "S2", path: "cli", n: n, medianMs: Measure.median(statusesWhileCompacting.map(\.ms)),
                    note:
                        "contacts-host status right after a CLI full sync, once the provider held the system store's lock for its compaction, up to \(Self.statusSamples) runs per compaction while it held it (\(Self.statusSamples) per sync when the sync left none due); the compaction still held it when status ended in \(during) of \(statusesWhileCompacting.count) runs (issue 44, item 1: settled status is S1)"
                ))
        }
        figures.append(
            Figure(
                id: "P6", path: "cli", n: n, medianMs: Measure.median(firstSignals),
                note: "the first signal --wait right after a CLI full sync (a compaction due then gives way to it)"))
        return baselineFullSync
    }

    /// Waits for the compaction a full sync leaves due in the system store to end: until the journal
    /// is no longer due (the compaction's new, empty journal), then for the store's lock, which the
    /// compaction holds until it has written the search index too.
    func waitForCompaction(_ client: SystemClient) throws {
        let store = SystemStore(directory: client.paths.systemStore)
        let deadline = Measure.now() + 600
        // The provider starts compacting once the doorbells pause (50 ms), in its own time: there is
        // nothing to wait on until it holds the lock, so the journal's size is polled.
        while store.isCompactionDue() {
            guard Measure.now() < deadline else {
                throw BenchError("the system store's compaction did not end in 600 s")
            }
            usleep(2_000)
        }
        let fd = open(store.lockPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        while flock(fd, LOCK_SH) != 0, errno == EINTR {}
        flock(fd, LOCK_UN)
    }

    /// The seed-demo provider: one page of everything, and everything re-sent on every signal.
    func naiveFullSync() throws -> (sync: Double, resend: Double) {
        let group = try temporaryGroup("seed")
        defer { try? FileManager.default.removeItem(atPath: group.path) }
        let client = try SystemClient(appGroup: group, domain: "defaultDomain")
        defer { try? client.shutdownProvider() }
        // The seed demo reads its own store, ContactItems.json at the App Group root.
        try NaiveBaseline.create(at: URL(fileURLWithPath: group.path + "/ContactItems.json"), count: n)
        try client.enable(extensionPath: products + "/seed-demo-provider")
        try client.updateConfiguration { $0.hardCapMultiplier = Int.max / 1024 }
        let sync = try Measure.milliseconds { try signalAndCheck(client, expectCount: n) }
        var resends: [Double] = []
        for _ in 0..<(n >= 50_000 ? 3 : 10) {
            resends.append(try Measure.milliseconds { try signalAndCheck(client, expectCount: nil) })
        }
        return (sync, Measure.median(resends))
    }
}
