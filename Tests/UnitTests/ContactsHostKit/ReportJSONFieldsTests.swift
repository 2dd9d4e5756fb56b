import ContactProviderSystem
import Foundation
import Testing

@testable import ContactsHostKit

/// Issue 46: `signal --json` prints a `SyncReport` through its declared keys (`ReportJSON`), and the
/// help's shape of that report (`SignalOptions.reportShape`) is text the compiler cannot check
/// against them: this does, and that what `ReportJSON` writes it reads back.
@Suite("signal --json: the report's keys, its help shape, and a round trip")
struct ReportJSONFieldsTests {
    static func fullReport() -> SyncReport {
        var report = SyncReport(enumeration: "changes")
        report.pages = 1
        report.batches = 2
        report.updated = 3
        report.deleted = 4
        report.systemCount = 5
        report.anchor = SyncPosition(generationMarker: Data("g".utf8), offset: 6)
        report.nextPage = SyncPosition(generationMarker: Data("h".utf8), offset: 7)
        report.durationMs = 8.25
        report.restarted = true
        report.error = SyncReport.ReportedError(code: "pageExpired", rule: "R23", message: "m")
        report.warnings = ["w"]
        report.callMilliseconds = [1.5]
        return report
    }

    @Test("the keys signal --json writes for a report with every field set are the ones its help's shape names")
    func shapeNamesEveryKey() throws {
        let json = try JSONEncoder().encode(ReportJSON(Self.fullReport(), transcript: ["t"]))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        // The shape's top-level keys: its nested objects ({"generationMarker", "offset"}) removed.
        let shape = String(SignalOptions.reportShape.dropFirst().dropLast())
            .replacing(/\{[^{}]*\}/, with: "")
        let named = Set(shape.matches(of: /"(\w+)"/).map { String($0.output.1) })
        #expect(named.contains("transcript") && named.contains("anchor"), "\(named.sorted())")
        #expect(Set(object.keys) == named, "written \(object.keys.sorted()), in the help \(named.sorted())")
        // The call times are the kit's (a traced reply), not printed.
        #expect(object["callMilliseconds"] == nil)
    }

    @Test("what ReportJSON writes it reads back as the same report, but for the call times")
    func roundTrip() throws {
        let printed = ReportJSON(Self.fullReport(), transcript: ["t"])
        let read = try JSONDecoder().decode(ReportJSON.self, from: try JSONEncoder().encode(printed))
        var expected = Self.fullReport()
        expected.callMilliseconds = nil
        #expect(read.report == expected)
        #expect(read.transcript == ["t"])
    }
}
