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
}
