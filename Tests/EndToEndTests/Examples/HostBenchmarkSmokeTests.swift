import Foundation
import TestSupport
import Testing

/// A smoke run of the benchmark's host figures at a tiny size (no timing assertions).
@Suite("Examples: contacts-bench --host-only smoke run")
struct HostBenchmarkSmokeTests {
    @Test(
        "contacts-bench --quick --host-only --contacts 40 --json reports import, get, search (and the first after a compaction), status and add"
    )
    func smoke() throws {
        try withTemporaryAppGroup { group in
            let recordPath = group.path + "/run.json"
            let result = try ProcessRunner.run(
                BuiltProducts.path("contacts-bench"),
                ["--quick", "--host-only", "--contacts", "40", "--json", "--record", recordPath],
                environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            // The run as data: command, machine, date and build beside the same figures.
            let record = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recordPath)))
                    as? [String: Any])
            #expect(
                record["command"] as? String
                    == "contacts-bench --quick --host-only --contacts 40 --json --record \(recordPath)")
            #expect(record["configuration"] as? String == "debug", "swift test builds debug")
            let machine = try #require(record["machine"] as? [String: Any])
            #expect((machine["processors"] as? Int ?? 0) >= 1)
            #expect((machine["system"] as? String ?? "").hasPrefix("Linux"))
            #expect((record["date"] as? String ?? "").hasPrefix("20"))
            #expect((record["figures"] as? [[String: Any]])?.count ?? 0 >= 9)
            let figures = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            for (id, path) in [
                ("I1", "cli"), ("G1", "library"), ("G1", "cli"), ("Q1", "library"), ("Q1", "cli"), ("Q2", "library"),
                ("S1", "cli"), ("P1", "library"), ("P1", "cli"),
            ] {
                let figure = try #require(
                    figures.first { $0["id"] as? String == id && $0["path"] as? String == path }, "\(id) \(path)")
                #expect((figure["medianMs"] as? Double ?? 0) > 0, "\(id) \(path)")
                #expect(figure["n"] as? Int == 40)
            }
            let firstSearch = try #require(
                figures.first { $0["id"] as? String == "Q1" && $0["path"] as? String == "library" })
            #expect((firstSearch["note"] as? String ?? "").contains("name index used, no rebuild"), "\(firstSearch)")
            let importFigure = try #require(figures.first { $0["id"] as? String == "I1" })
            #expect((importFigure["peakRSSBytes"] as? Int ?? 0) > 1_000_000)
            #expect(!figures.contains { $0["id"] as? String == "P3" }, "--host-only skips the sync figures")
        }
    }
}
