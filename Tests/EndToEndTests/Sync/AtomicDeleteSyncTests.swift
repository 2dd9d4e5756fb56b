import Foundation
import TestSupport
import Testing

/// Issue 10, item 5, through the provider: one atomic `delete` of many ids still syncs in batches
/// within the suggested size (a batch over 100× the suggestion would fail every sync, R31).
@Suite("End to end: a multi-id delete syncs in small batches")
struct AtomicDeleteSyncTests {
    @Test("delete of 250 ids with batch size 2 (hard cap 200): every batch within the size, the system equals the app")
    func bigDeleteSyncsInSmallBatches() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--batch-size", "2"], in: group)
            try host(["import", try makeImportFile(group, count: 300)], in: group)
            let content = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(content["systemCount"] as? Int == 300)

            let doomed = (0..<250).map { "bulk-" + String(format: "%05d", $0) }
            try host(["delete"] + doomed, in: group)
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["error"] == nil, "\(report)")
            #expect(report["enumeration"] as? String == "changes")
            #expect(report["deleted"] as? Int == 250)
            #expect((report["batches"] as? Int ?? 0) >= 125, "\(report)")
            #expect((report["warnings"] as? [String] ?? []).isEmpty, "\(report)")
            try expectSystemMatchesApp(group, count: 50)
            try stopProvider(group)
        }
    }
}
