import Foundation
import FoundationXML
import Testing

@testable import ContactProviderConformance

/// Issue 42 item 8: what outlived the provider is a note of the report (text and JSON); why a run had
/// no cgroup is a note of its text only (it depends on the machine, not on the provider).
@Suite("Conformance reports: processes that outlived the provider")
struct OutlivingProcessReportTests {
    static func report() -> ConformanceReport {
        var report = ConformanceReport(
            provider: "p", seed: 1, operations: 2, results: [], durationSeconds: 0, startFailure: nil)
        report.outlivingProcesses = [
            OutlivingProcess(pid: 41, command: "sleep", endedBy: "SIGTERM"),
            OutlivingProcess(pid: 42, command: "helper", endedBy: "SIGKILL"),
        ]
        report.containmentUnavailable = "no cgroup could be created (/sys/fs/cgroup/pids: Permission denied)"
        return report
    }

    @Test("the text names each process, its command and how it was ended, and why there was no cgroup")
    func text() {
        let text = Self.report().text
        #expect(
            text.contains(
                "NOTE processes: 2 processes the provider started outlived it; the kit ended them: "
                    + "pid 41 (sleep): SIGTERM, pid 42 (helper): SIGKILL"), "\(text)")
        #expect(text.contains("NOTE containment: the providers ran without a cgroup of their own"), "\(text)")
        #expect(text.contains("/sys/fs/cgroup/pids: Permission denied"), "\(text)")
        var clean = Self.report()
        clean.outlivingProcesses = nil
        clean.containmentUnavailable = nil
        #expect(!clean.text.contains("NOTE"), "\(clean.text)")
    }

    @Test("the JSON holds the processes and round-trips them; the machine's containment note stays out of it")
    func json() throws {
        let data = try JSONEncoder().encode(Self.report())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let processes = try #require(object["outlivingProcesses"] as? [[String: Any]])
        #expect(processes.map { $0["command"] as? String } == ["sleep", "helper"])
        #expect(object["containmentUnavailable"] == nil)
        let decoded = try JSONDecoder().decode(ConformanceReport.self, from: data)
        #expect(decoded.outlivingProcesses == Self.report().outlivingProcesses)
        var none = Self.report()
        none.outlivingProcesses = nil
        let plain = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(none)) as? [String: Any])
        #expect(plain["outlivingProcesses"] == nil, "no key when nothing outlived the provider")
    }

    @Test("JUnit carries the same notes in the suite's system-out, and none when there are none")
    func junit() throws {
        let document = try XMLDocument(data: Data(Self.report().junitXML.utf8))
        let output = try document.nodes(forXPath: "/testsuite/system-out").map { $0.stringValue ?? "" }
        #expect(output.count == 1)
        #expect(output.first?.contains("pid 42 (helper): SIGKILL") == true, "\(output)")
        #expect(output.first?.contains("NOTE containment:") == true, "\(output)")
        var clean = Self.report()
        clean.outlivingProcesses = nil
        clean.containmentUnavailable = nil
        #expect(!clean.junitXML.contains("system-out"))
    }
}
