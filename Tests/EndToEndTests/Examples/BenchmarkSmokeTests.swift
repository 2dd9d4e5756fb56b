import Foundation
import TestSupport
import Testing

/// A smoke run of the benchmark at a tiny size: it runs end to end and reports every figure.
/// (No timing assertions: speed is measured by the release benchmark, not by tests.)
@Suite("Examples: contacts-bench smoke run")
struct BenchmarkSmokeTests {
    @Test("contacts-bench --quick --contacts 40 --json reports P1–P4 for the library and the CLI")
    func smoke() throws {
        try withTemporaryAppGroup { group in
            let result = try ProcessRunner.run(
                BuiltProducts.path("contacts-bench"), ["--quick", "--contacts", "40", "--json"],
                environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            let figures = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            for id in ["P1", "P2", "P3", "P4"] {
                #expect(
                    figures.contains {
                        $0["id"] as? String == id && $0["path"] as? String == "library"
                            && ($0["medianMs"] as? Double ?? 0) > 0
                    })
            }
            // Every figure carries the machine's load when it was taken (issue 44).
            #expect(figures.allSatisfy { ($0["loadAverage"] as? Double).map { $0 >= 0 } ?? false }, "\(figures)")
            for id in ["P1", "P2", "P4"] {
                let cli = try #require(figures.first { $0["id"] as? String == id && $0["path"] as? String == "cli" })
                #expect((cli["floorMs"] as? Double ?? 0) > 0)
                #expect((cli["peakRSSBytes"] as? Int ?? 0) > 1_000_000)
                #expect(cli["n"] as? Int == 40)
                // Each command's floor does its I/O (bench-floor's modes), and the bare start is noted.
                let note = cli["note"] as? String ?? ""
                #expect(note.contains(id == "P1" ? "bench-floor append" : "bench-floor ring"), "\(note)")
                #expect(note.contains("start-up floor"), "\(note)")
                // The signal floors' peer is placed as the provider is (SessionProcess).
                if id != "P1" { #expect(note.contains("peer in a session of its own"), "\(note)") }
            }
            // The full sync's CPU time beside SQLite's durable copy of the same rows (issue 44, item 4).
            let fullSync = try #require(
                figures.first { $0["id"] as? String == "P3" && $0["path"] as? String == "library" })
            #expect((fullSync["cpuMs"] as? Double ?? 0) > 0, "\(fullSync)")
            let sqlite = try #require(
                figures.first { $0["id"] as? String == "P3" && $0["path"] as? String == "sqlite" },
                "P3's SQLite reference is measured")
            #expect((sqlite["cpuMs"] as? Double ?? 0) > 0 && (sqlite["medianMs"] as? Double ?? 0) > 0, "\(sqlite)")
            #expect(sqlite["n"] as? Int == 40)
            let p1 = try #require(figures.first { $0["id"] as? String == "P1" && $0["path"] as? String == "library" })
            #expect((p1["baselineMedianMs"] as? Double ?? 0) > 0, "the naive baseline is measured in the same run")
            #expect(result.stderr.contains("n=40"))
            // Issue 44's items 1–3 as figures: status while the compaction runs, export's peak memory,
            // and the README tour's bulk write behind a live anchor, which arrives as changes.
            #expect(figures.contains { $0["id"] as? String == "S2" && ($0["medianMs"] as? Double ?? 0) > 0 })
            let export = try #require(figures.first { $0["id"] as? String == "X1" })
            #expect((export["peakRSSBytes"] as? Int ?? 0) > 1_000_000, "\(export)")
            let bulk = try #require(figures.first { $0["id"] as? String == "P9" })
            #expect(bulk["delivered"] as? String == "changes, 1000 updated, 0 deleted", "\(bulk)")
        }
    }

    @Test(
        "contacts-bench --goals judges every goal (issues 27, 43, 44) in one run, quiet and loaded, the debug build's figures included"
    )
    func goals() throws {
        try withTemporaryAppGroup { group in
            let record = group.path + "/goals-run.json"
            // The tests' build is the debug one: this bench is also the "debug build's bench" it runs.
            let bench = BuiltProducts.path("contacts-bench")
            let result = try ProcessRunner.run(
                bench, ["--goals", "--quick", "--contacts", "40", "--debug-bench", bench, "--record", record],
                environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            let run = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any]
            )
            let goals = try #require(run["goals"] as? [[String: Any]])
            #expect(
                goals.count == 13,
                "one verdict per goal: issue 27's eight, issue 44's full sync near the disk, debug import, readers, export and bulk write"
            )
            for goal in goals {
                #expect(!(goal["goal"] as? String ?? "").isEmpty && !(goal["measured"] as? String ?? "").isEmpty)
                #expect(result.stdout.contains(goal["goal"] as? String ?? "?"), "each goal is printed")
                // Each goal is judged on the loaded variant too (issue 44, item 6).
                let loaded = goal["loaded"] as? [String: Any] ?? [:]
                #expect(!(loaded["measured"] as? String ?? "").isEmpty, "\(goal)")
            }
            #expect(
                goals.contains {
                    $0["goal"] as? String == "1M full sync ≤ 5× the raw floor and ≤ 1.5× SQLite's durable copy in CPU"
                })
            // At 40 contacts the per-command and idle-signal goals are judged, quiet and loaded, each
            // with the load averages of its figures; the 1M ones are not measured.
            let judged = goals.filter { $0["met"] != nil && ($0["loaded"] as? [String: Any])?["met"] != nil }
            for prefix in ["one CLI command", "idle signal"] {
                let goal = judged.first { ($0["goal"] as? String ?? "").hasPrefix(prefix) }
                #expect(goal?["loadAverages"] != nil && (goal?["loaded"] as? [String: Any])?["loadAverages"] != nil)
            }
            #expect(goals.contains { ($0["goal"] as? String ?? "").hasPrefix("debug build, 1M") && $0["met"] == nil })
            let figures = try #require(run["figures"] as? [[String: Any]])
            #expect(figures.contains { $0["configuration"] as? String == "debug" && $0["id"] as? String == "P3" })
            // The loaded variant takes the same figures, the debug build's too, each noting its load.
            for (id, path, debug) in [("P4", "library", false), ("P3", "sqlite", false), ("P3", "library", true)] {
                let loaded =
                    figures.first {
                        $0["id"] as? String == id && $0["path"] as? String == path + "-loaded"
                            && ($0["configuration"] as? String == "debug") == debug
                    } ?? [:]
                #expect((loaded["note"] as? String ?? "").contains("busy processes"), "\(id) \(path) loaded")
                // A spinner pinned to each processor, in the bench's session: the load of the goals.
                let note = loaded["note"] as? String ?? ""
                #expect(note.contains("each pinned to its own processor, in the bench's session"), "\(id) \(path)")
            }
            #expect(figures.contains { $0["path"] as? String == "library-loaded" && $0["runMediansMs"] != nil })
            #expect(
                figures.contains {
                    $0["id"] as? String == "P3" && $0["path"] as? String == "library" && $0["slowestCallMs"] != nil
                },
                "the full sync is traced: its slowest page is known")
        }
    }

    @Test("--expect-configuration refuses a build of the other configuration (a goals run's child)")
    func expectConfiguration() throws {
        let result = try ProcessRunner.run(BuiltProducts.path("contacts-bench"), ["--expect-configuration", "release"])
        #expect(result.exitCode == 2 && result.stderr.contains("is a debug build, not release"), "\(result)")
    }

    @Test("every recorded goals run's verdicts follow from its figures (contacts-bench --judge)")
    func recordedVerdictsFollowFromTheFigures() throws {
        let directory = PythonTestTools.repositoryRoot + "/docs/benchmark-runs"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        var judged = 0
        for file in files {
            let path = directory + "/" + file
            let run =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            guard let recorded = run?["goals"] as? [[String: Any]] else { continue }
            let result = try ProcessRunner.run(BuiltProducts.path("contacts-bench"), ["--judge", path])
            #expect(result.exitCode == 0, "\(result)")
            let again = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            // The goals a run was recorded with come out as recorded (a later issue's goals come after them).
            #expect(
                Array(again.prefix(recorded.count)).map { $0["goal"] as? String }
                    == recorded.map { $0["goal"] as? String }, "\(file)")
            #expect(
                Array(again.prefix(recorded.count)).map { $0["met"] as? Bool } == recorded.map { $0["met"] as? Bool },
                "\(file): \(result.stdout)")
            // A run recorded with a loaded variant: its loaded verdicts too.
            func loadedMet(_ goal: [String: Any]) -> Bool? { (goal["loaded"] as? [String: Any])?["met"] as? Bool }
            if recorded.contains(where: { $0["loaded"] != nil }) {
                #expect(
                    Array(again.prefix(recorded.count)).map(loadedMet) == recorded.map(loadedMet),
                    "\(file): \(result.stdout)")
            }
            // Goals added since are judged on the run's figures where it has them (issue 44's debug
            // import ratio reads the I1 figures every goals run has), else not measured.
            for added in again.dropFirst(recorded.count) {
                #expect(!(added["measured"] as? String ?? "").isEmpty, "\(file): \(added)")
            }
            judged += 1
        }
        #expect(judged >= 1, "no recorded goals run in \(directory)")
    }
}
