import Foundation
import TestSupport
import Testing

/// Issue 27: benchmark results are data the bench writes (`contacts-bench --record`), rendered in
/// the docs. `docs/benchmark-runs/README.md` is the rendering of every run file there, and this test
/// fails when it is not (re-render with `CPS_RECORD_GOLDEN=1`).
@Suite("Benchmark runs: docs/benchmark-runs/README.md is rendered from the run files")
struct BenchmarkRunsTests {
    struct Run: Decodable {
        struct Machine: Decodable {
            var host: String?
            var system: String?
            var processors: Int?
            var memoryGiB: Double?
        }
        struct Figure: Decodable {
            var id: String
            var path: String
            var n: Int
            var medianMs: Double
            var baselineMedianMs: Double?
            var floorMs: Double?
            var peakRSSBytes: Int?
            var runMediansMs: [Double]?
            var slowestCallMs: Double?
            var cpuMs: Double?
            var failedRules: [String]?
            var configuration: String?
            var note: String?
        }
        struct Goal: Decodable {
            struct Judgement: Decodable {
                var measured: String
                var met: Bool?
                var loadAverages: LoadAverages?
            }
            struct LoadAverages: Decodable {
                var lowest: Double
                var highest: Double
            }
            var goal: String
            var measured: String
            var met: Bool?
            var loadAverages: LoadAverages?
            /// The loaded variant's verdict (issue 44, item 6), in runs recorded since.
            var loaded: Judgement?
        }
        var command: String
        var configuration: String
        var date: String
        var machine: Machine
        var figures: [Figure]
        var goals: [Goal]?
    }

    static var directory: String { PythonTestTools.repositoryRoot + "/docs/benchmark-runs" }

    /// The Markdown of every run file, newest name last.
    static func rendered() throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
            .sorted()
        var lines = [
            "# Benchmark runs",
            "",
            "Rendered from the run files in this folder, which `contacts-bench --record FILE` writes (never",
            "edited); `BenchmarkRunsTests` checks this page against them (`CPS_RECORD_GOLDEN=1` re-renders it).",
            "What each figure measures: [../benchmarks.md](../benchmarks.md).",
        ]
        for file in files {
            let run = try JSONDecoder().decode(
                Run.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)))
            let machine = [
                run.machine.system, run.machine.processors.map { "\($0) processors" },
                run.machine.memoryGiB.map { String(format: "%.1f GiB", $0) },
            ].compactMap { $0 }.joined(separator: ", ")
            lines += [
                "", "## [\(file)](\(file))", "",
                "`\(run.command)` — \(run.configuration) build, \(run.date), \(machine).", "",
                "| figure | path | n | median ms | floor ms | peak MB | note |",
                "|---|---|---:|---:|---:|---:|---|",
            ]
            for figure in run.figures {
                let floor = figure.floorMs.map { String(format: "%.1f", $0) } ?? ""
                let peak = figure.peakRSSBytes.map { String(format: "%.0f", Double($0) / 1_048_576) } ?? ""
                let runs =
                    figure.runMediansMs.map { medians in
                        " (run medians " + medians.map { String(format: "%.3f", $0) }.joined(separator: ", ") + ")"
                    } ?? ""
                let slowest = figure.slowestCallMs.map { String(format: " (slowest page %.1f ms)", $0) } ?? ""
                let cpu = figure.cpuMs.map { String(format: " (CPU %.1f ms)", $0) } ?? ""
                let failed = figure.failedRules.map { " (failed: \($0.joined(separator: ", ")))" } ?? ""
                let note = ((figure.note ?? "") + runs + slowest + cpu + failed).replacingOccurrences(
                    of: "|", with: "\\|")
                let path = figure.path + (figure.configuration.map { " (\($0))" } ?? "")
                lines.append(
                    "| \(figure.id) | \(path) | \(figure.n) | \(String(format: "%.3f", figure.medianMs)) | \(floor) | \(peak) | \(note) |"
                )
            }
            if let goals = run.goals {
                func verdict(_ met: Bool?) -> String { met.map { $0 ? "met" : "**not met**" } ?? "not measured" }
                func measured(_ text: String, _ load: Run.Goal.LoadAverages?) -> String {
                    let loadText = load.map { String(format: " (load average %.1f–%.1f)", $0.lowest, $0.highest) } ?? ""
                    return (text + loadText).replacingOccurrences(of: "|", with: "\\|")
                }
                // Runs since issue 44 judge each goal on a quiet and on a loaded variant.
                if goals.contains(where: { $0.loaded != nil }) {
                    lines += [
                        "", "The goals, judged by the bench on this run's figures, quiet and loaded:", "",
                        "| goal | measured, quiet | verdict | measured, loaded | verdict, loaded |",
                        "|---|---|---|---|---|",
                    ]
                    for goal in goals {
                        lines.append(
                            "| \(goal.goal) | \(measured(goal.measured, goal.loadAverages)) | \(verdict(goal.met)) | "
                                + "\(measured(goal.loaded?.measured ?? "not measured", goal.loaded?.loadAverages)) | "
                                + "\(verdict(goal.loaded?.met)) |")
                    }
                } else {
                    lines += [
                        "", "Issue 27's goals, judged by the bench on this run's figures:", "",
                        "| goal | measured | verdict |", "|---|---|---|",
                    ]
                    for goal in goals {
                        lines.append("| \(goal.goal) | \(measured(goal.measured, nil)) | \(verdict(goal.met)) |")
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the page equals the rendering of the run files")
    func renderedFromTheRuns() throws {
        let path = Self.directory + "/README.md"
        let expected = try Self.rendered()
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            try expected.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            page == expected,
            "docs/benchmark-runs/README.md is not the rendering of the run files; re-render with CPS_RECORD_GOLDEN=1")
    }
}
