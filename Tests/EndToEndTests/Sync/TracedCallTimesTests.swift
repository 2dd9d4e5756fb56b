import ContactProviderSystem
import Foundation
import Glibc
import TestSupport
import Testing

/// A traced sync's report carries every page's call time (what the kit's size rules and the bench
/// read). A reply is one atomic pipe write of at most 4096 bytes: at a thousand pages the times no
/// longer fit, and the host used to report "the provider exited before answering" (found by
/// `contacts-bench --goals` at 1,000,000 contacts). They now travel in a file beside the reply.
@Suite("End to end: a traced sync's call times when too many for one pipe write")
struct TracedCallTimesTests {
    @Test("a traced content sync of 1,000 pages: every page's call time reaches the host; the file is removed")
    func thousandPages() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("demo-provider"), "--page-size", "2"], in: group)
            try host(["import", try makeImportFile(group, count: 2000)], in: group)
            let client = try SystemClient(appGroup: group.appGroup, domain: "defaultDomain")
            defer { try? client.shutdownProvider() }
            let reply = try #require(try client.signal(wait: true, timeout: 300, trace: true))
            if let trace = reply.trace { unlink(trace) }
            let report = try #require(reply.report)
            #expect(report.error == nil, "\(report)")
            #expect(report.pages == 1000 && report.systemCount == 2000, "\(report)")
            #expect(report.callMilliseconds?.count == 1000)
            #expect(report.callMilliseconds?.allSatisfy { $0 >= 0 && $0.isFinite } == true)
            #expect(reply.callsFile == nil, "the client reads the file back for its callers")
            let traces = try FileManager.default.contentsOfDirectory(atPath: client.paths.tracesDirectory)
            #expect(!traces.contains { $0.hasSuffix(".calls") }, "\(traces)")
        }
    }
}
