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
            }
            let p1 = try #require(figures.first { $0["id"] as? String == "P1" && $0["path"] as? String == "library" })
            #expect((p1["baselineMedianMs"] as? Double ?? 0) > 0, "the naive baseline is measured in the same run")
            #expect(result.stderr.contains("n=40"))
        }
    }

    @Test("contacts-bench --goals judges every goal (issues 27, 43) in one run, the debug build's figures included")
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
            #expect(goals.count == 9, "one verdict per goal: issue 27's eight and issue 43's loaded kit")
            for goal in goals {
                #expect(!(goal["goal"] as? String ?? "").isEmpty && !(goal["measured"] as? String ?? "").isEmpty)
                #expect(result.stdout.contains(goal["goal"] as? String ?? "?"), "each goal is printed")
            }
            // At 40 contacts the per-command and idle-signal goals are judged; the 1M ones are not measured.
            let judged = goals.filter { $0["met"] != nil }.compactMap { $0["goal"] as? String }
            #expect(
                judged.contains { $0.hasPrefix("one CLI command") } && judged.contains { $0.hasPrefix("idle signal") })
            #expect(goals.contains { ($0["goal"] as? String ?? "").hasPrefix("debug build, 1M") && $0["met"] == nil })
            let figures = try #require(run["figures"] as? [[String: Any]])
            #expect(figures.contains { $0["configuration"] as? String == "debug" && $0["id"] as? String == "P3" })
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
            // The goals a run was recorded with come out as recorded; goals added since (a later
            // issue's) are not measured in it.
            #expect(
                Array(again.prefix(recorded.count)).map { $0["goal"] as? String }
                    == recorded.map { $0["goal"] as? String }, "\(file)")
            #expect(
                Array(again.prefix(recorded.count)).map { $0["met"] as? Bool } == recorded.map { $0["met"] as? Bool },
                "\(file): \(result.stdout)")
            for added in again.dropFirst(recorded.count) {
                #expect(added["met"] as? Bool == nil, "\(file): a goal added later is judged: \(added)")
            }
            judged += 1
        }
        #expect(judged >= 1, "no recorded goals run in \(directory)")
    }
}
