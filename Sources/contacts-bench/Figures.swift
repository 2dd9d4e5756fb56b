import AppGroupStore
import ContactProviderConformance
import ContactProviderSystem
import Foundation

/// One measured figure, as printed by `--json`.
struct Figure: Codable {
    var id: String
    var path: String
    var n: Int
    var medianMs: Double
    var baselineMedianMs: Double?
    var floorMs: Double?
    var peakRSSBytes: Int?
    var referenceMs: Double?
    /// P4: the median of each of several runs (min, median, max are printed): a goal "in every run".
    var runMediansMs: [Double]?
    /// P3 (library): the slowest page's call, as the provider timed it (R41's measure), over the
    /// full syncs: "no page near its limit".
    var slowestCallMs: Double?
    /// CPU time, user and system (issue 44, item 4): for P3 (library) the provider's and the
    /// bench's over the full sync and the compaction that follows it; for P3 (sqlite) the `sqlite3`
    /// process's.
    var cpuMs: Double?
    /// P7 on a provider with O(n) pages: the rules the kit failed.
    var failedRules: [String]?
    /// P9: what the sync after a bulk write was (`changes, 1000 updated, 0 deleted`).
    var delivered: String?
    /// `debug` for a figure the goals run took from the debug build's bench (`--goals`); nil: the
    /// record's own configuration.
    var configuration: String?
    var note: String?
    /// The machine's load when the figure was taken (issue 44): the one-minute load average of
    /// `/proc/loadavg`, read as the figure is made, right after its measurement; a figure decoded
    /// from another run keeps that run's.
    var loadAverage: Double? = Figure.currentLoadAverage()

    /// The one-minute load average now, or nil where `/proc/loadavg` cannot be read.
    static func currentLoadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return nil }
        return Double(first)
    }
}

/// Runs every figure at one database size.
final class SizeRun {
    let n: Int
    let products: String
    let repetitions: Repetitions
    let log: (String) -> Void
    /// `--only`: the figures to measure (nil: all of them).
    let only: Set<String>?
    /// P3's SQLite reference; nil: not measured.
    let sqlite: SQLiteReference?
    var figures: [Figure] = []

    struct Repetitions {
        var libraryAdds = 200
        var cliRuns = 30
        var signals = 50
        var fullSyncs = 3
        var naiveAdds = 20
        /// P4 is measured in this many runs of `signals` idle signals.
        var idleRuns = 5
    }

    init(
        n: Int, products: String, repetitions: Repetitions, only: Set<String>? = nil, sqlite: SQLiteReference? = nil,
        log: @escaping (String) -> Void
    ) {
        self.n = n
        self.only = only
        self.sqlite = sqlite
        self.products = products
        self.repetitions = repetitions
        self.log = log
    }

    /// The largest size at which the seed's naive add (decode, append, encode, rewrite) is measured.
    static let naiveLimit = 200_000
    /// The largest size at which the seed demo provider's full sync is measured.
    static let seedLimit = 20_000

    static func records(_ count: Int, prefix: String = "p") -> [ContactRecord] {
        (0..<count).map { index in
            var record = ContactRecord(identifier: "\(prefix)-\(String(format: "%07d", index))")
            record.givenName = "Given\(index)"
            record.familyName = "Family\(index % 97)"
            record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "+1 555 \(1_000_000 + index)")]
            record.emailAddresses = [.init(label: "_$!<Work>!$_", value: "person\(index)@example.com")]
            return record
        }
    }

    func wants(_ id: String) -> Bool { only?.contains(id) ?? true }

    func temporaryGroup(_ name: String) throws -> AppGroup {
        let group = AppGroup(path: NSTemporaryDirectory() + "/cps-bench-\(name)-\(n)-\(UUID().uuidString.prefix(8))")
        try group.ensureExists()
        return group
    }

    func environment(_ group: AppGroup) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[AppGroup.environmentVariable] = group.path
        return environment
    }

    func run() throws {
        let group = try temporaryGroup("main")
        defer { try? FileManager.default.removeItem(atPath: group.path) }
        let database = AppDatabase(appGroup: group)
        let client = try SystemClient(appGroup: group, domain: "defaultDomain")
        defer { try? client.shutdownProvider() }
        log("n=\(n): loading \(n) contacts")
        let contacts = Self.records(n)
        try database.replaceAll(with: contacts)
        try client.enable(extensionPath: products + "/demo-provider")

        // S2 (status while the compaction after a full sync runs) is measured in P3's CLI full syncs.
        guard wants("P3") || wants("S2") else {
            // The other figures start from a synced system store.
            try signalAndCheck(client, expectCount: n)
            try runAfterFullSync(group: group, database: database, client: client, baselineFullSync: (nil, nil))
            try measureBulkWrite(group: group, client: client)
            return
        }
        let baselineFullSync = try measureFullSync(group: group, client: client, contacts: contacts)
        try runAfterFullSync(group: group, database: database, client: client, baselineFullSync: baselineFullSync)
        try measureBulkWrite(group: group, client: client)
    }

    /// P9, last: it adds ``bulkWrite`` contacts, which the other figures' N must not count.
    private func measureBulkWrite(group: AppGroup, client: SystemClient) throws {
        guard wants("P9") else { return }
        log("n=\(n): P9 bulk write behind the anchor")
        try signalAndCheck(client, expectCount: nil)
        try client.updateConfiguration { $0.itemsLimit = max($0.itemsLimit, $0.itemsLimit + Self.bulkWrite) }
        var environment = self.environment(group)
        environment["CONTACTS_HOST_PEAK_RSS_FILE"] = nil
        figures.append(try bulkWriteBehindAnchor(client: client, environment: environment))
    }

    /// S1, P1, P2, P4 and the CLI runs, on a synced system store.
    private func runAfterFullSync(
        group: AppGroup, database: AppDatabase, client: SystemClient, baselineFullSync: (sync: Double?, resend: Double?)
    ) throws {
        let cliEnvironment: [String: String] = {
            var environment = self.environment(group)
            environment["CONTACTS_HOST_PEAK_RSS_FILE"] = nil
            return environment
        }()

        // `status` through the CLI (its cost should not grow with the address book), settled: after
        // the compaction a full sync leaves due (S2 measures it during that compaction).
        if wants("S1") { try waitForCompaction(client) }
        var statuses: [Double] = []
        // As many runs as the other CLI figures: S2's goal divides by this median, and on a loaded
        // machine ten runs left it at the mercy of a quiet moment (10.9 ms at 1,000,000 against
        // 17.6–20.2 ms at the smaller sizes in the night goals run of 2026-12-06).
        for _ in 0..<(wants("S1") ? repetitions.cliRuns : 0) {
            let run = try Measure.spawn([products + "/contacts-host", "status"], environment: cliEnvironment)
            guard run.exitCode == 0 else { throw BenchError("contacts-host status failed (exit \(run.exitCode))") }
            statuses.append(run.milliseconds)
        }
        if wants("S1") {
            figures.append(
                Figure(id: "S1", path: "cli", n: n, medianMs: Measure.median(statuses), note: "contacts-host status"))
        }
        guard wants("P1") || wants("P2") || wants("P4") else { return }

        // P1, P2 and the CLI runs add contacts: at the documented items limit (1,000,000) they would
        // trip R42. The full syncs above ran with the default settings; from here on the limit has room.
        let added = repetitions.libraryAdds + repetitions.signals + repetitions.cliRuns * 2 + 10
        try client.updateConfiguration { $0.itemsLimit = max($0.itemsLimit, n + added) }

        // P1: add one contact (library), against the seed's decode-append-encode-rewrite.
        log("n=\(n): P1 library adds")
        var adds: [Double] = []
        for index in 0..<(wants("P1") ? repetitions.libraryAdds : 0) {
            var record = ContactRecord(identifier: "")
            record.givenName = "Added\(index)"
            adds.append(try Measure.milliseconds { try database.add(record) })
        }
        let naive: Double? = n <= Self.naiveLimit && wants("P1") ? try naiveAdds() : nil
        if wants("P1") {
            figures.append(
                Figure(id: "P1", path: "library", n: n, medianMs: Measure.median(adds), baselineMedianMs: naive))
        }

        // P2: signal → system store updated with one pending change (library), against re-sending everything.
        log("n=\(n): P2/P4 library signals")
        try signalAndCheck(client, expectCount: nil)
        var signals: [Double] = []
        for index in 0..<(wants("P2") ? repetitions.signals : 0) {
            var record = ContactRecord(identifier: "")
            record.givenName = "Signal\(index)"
            try database.add(record)
            signals.append(try Measure.milliseconds { try signalAndCheck(client, expectCount: nil, updated: 1) })
        }
        if wants("P2") {
            figures.append(
                Figure(
                    id: "P2", path: "library", n: n, medianMs: Measure.median(signals),
                    baselineMedianMs: baselineFullSync.resend))
        }

        // P4: signal round trip with nothing to sync, in `idleRuns` runs: its goal holds in every run,
        // so the spread of the runs' medians is reported, not one median.
        func idleRuns() throws -> (all: [Double], medians: [Double]) {
            var idle: [Double] = []
            var runMedians: [Double] = []
            for _ in 0..<repetitions.idleRuns {
                var run: [Double] = []
                for _ in 0..<repetitions.signals {
                    run.append(try Measure.milliseconds { try signalAndCheck(client, expectCount: nil, updated: 0) })
                }
                runMedians.append(Measure.median(run))
                idle += run
            }
            return (idle, runMedians)
        }
        let runsNote =
            "\(repetitions.idleRuns) runs of \(repetitions.signals) idle signals; runMediansMs = each run's median"
        if wants("P4") {
            let quiet = try idleRuns()
            figures.append(
                Figure(
                    id: "P4", path: "library", n: n, medianMs: Measure.median(quiet.all), runMediansMs: quiet.medians,
                    note: runsNote))
        }

        // The same through the real contacts-host process, against the start-up floor.
        log("n=\(n): CLI runs")
        var environment = self.environment(group)
        let peakFile = group.path + "/host-peak-rss"
        environment["CONTACTS_HOST_PEAK_RSS_FILE"] = peakFile
        let host = products + "/contacts-host"
        func hostPeakBytes() -> Int {
            let text = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
            return (text.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        // Each command against a trivial executable doing the same I/O (bench-floor's modes, docs/
        // benchmarks.md "The CLI floors"): add appends and fdatasyncs one line; a signal rings a
        // waiting peer process over a FIFO and waits for its reply, the peer making the sync's
        // durable writes first. A one-change sync appends to the system store's journal and to the
        // sync history, and replaces last-sync.json ("aar"); the first idle sync after it only
        // replaces last-sync.json ("r").
        let floorTool = products + "/bench-floor"
        let floorDirectory = group.path + "/bench-floor"
        try FileManager.default.createDirectory(atPath: floorDirectory, withIntermediateDirectories: true)
        let changePeer = try FloorPeer(tool: floorTool, steps: "aar", directory: floorDirectory + "/peer-change")
        defer { changePeer.stop() }
        let idlePeer = try FloorPeer(tool: floorTool, steps: "r", directory: floorDirectory + "/peer-idle")
        defer { idlePeer.stop() }
        var startFloor: [Double] = []
        var appendFloor: [Double] = []
        var changeFloor: [Double] = []
        var idleFloor: [Double] = []
        var cliAdds: [Double] = []
        var cliSignals: [Double] = []
        var cliIdle: [Double] = []
        var hostPeak = 0
        for index in 0..<repetitions.cliRuns {
            startFloor.append(try Measure.spawn([floorTool], environment: environment).milliseconds)
            appendFloor.append(
                try Measure.spawn([floorTool, "append", floorDirectory + "/append"], environment: environment)
                    .milliseconds)
            let add = try Measure.spawn([host, "add", "--given-name", "Cli\(index)"], environment: environment)
            guard add.exitCode == 0 else { throw BenchError("contacts-host add failed (exit \(add.exitCode))") }
            cliAdds.append(add.milliseconds)
            hostPeak = max(hostPeak, hostPeakBytes())
            changeFloor.append(try changePeer.ring(environment: environment))
            let signal = try Measure.spawn([host, "signal", "--wait"], environment: environment)
            guard signal.exitCode == 0 else {
                throw BenchError("contacts-host signal failed (exit \(signal.exitCode))")
            }
            cliSignals.append(signal.milliseconds)
            hostPeak = max(hostPeak, hostPeakBytes())
            idleFloor.append(try idlePeer.ring(environment: environment))
            let quiet = try Measure.spawn([host, "signal", "--wait"], environment: environment)
            cliIdle.append(quiet.milliseconds)
        }
        let startNote = String(format: "start-up floor (bench-floor, no I/O) %.3f ms", Measure.median(startFloor))
        figures.append(
            Figure(
                id: "P1", path: "cli", n: n, medianMs: Measure.median(cliAdds), baselineMedianMs: naive,
                floorMs: Measure.median(appendFloor), peakRSSBytes: hostPeak,
                note: "floor: bench-floor append (one line, fdatasync); \(startNote)"))
        figures.append(
            Figure(
                id: "P2", path: "cli", n: n, medianMs: Measure.median(cliSignals),
                baselineMedianMs: baselineFullSync.resend, floorMs: Measure.median(changeFloor), peakRSSBytes: hostPeak,
                note: "floor: \(changePeer.description); \(startNote)"))
        figures.append(
            Figure(
                id: "P4", path: "cli", n: n, medianMs: Measure.median(cliIdle), floorMs: Measure.median(idleFloor),
                peakRSSBytes: hostPeak,
                note: "floor: \(idlePeer.description); \(startNote)"))
    }

    @discardableResult
    func signalAndCheck(_ client: SystemClient, expectCount: Int?, updated: Int? = nil, trace: Bool = false) throws
        -> SyncReport
    {
        guard let reply = try client.signal(wait: true, timeout: 600, trace: trace), let report = reply.report else {
            throw BenchError("no report from the provider")
        }
        if let transcript = reply.trace { unlink(transcript) }
        if let error = report.error { throw BenchError("sync failed: \(error.message)") }
        if let expectCount, report.systemCount != expectCount {
            throw BenchError("expected \(expectCount) contacts in the system store, found \(report.systemCount)")
        }
        if let updated, report.updated != updated {
            throw BenchError("expected \(updated) updated, got \(report.updated)")
        }
        return report
    }

    func naiveAdds() throws -> Double {
        let directory = try temporaryGroup("naive")
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let url = URL(fileURLWithPath: directory.path + "/ContactItems.json")
        try NaiveBaseline.create(at: url, count: n)
        let count = n >= 50_000 ? 5 : repetitions.naiveAdds
        var samples: [Double] = []
        for _ in 0..<count { samples.append(try Measure.milliseconds { try NaiveBaseline.add(at: url) }) }
        return Measure.median(samples)
    }
}
