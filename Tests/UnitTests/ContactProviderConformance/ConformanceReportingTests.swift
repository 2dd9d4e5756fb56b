import AppGroupStore
import ExampleProviders
import Foundation
import FoundationXML
import Testing

@testable import ContactProviderConformance

/// The kit's reports: field-level differences, JUnit XML, shell-safe reproductions, kept logs.
@Suite("Conformance reports")
struct ConformanceReportingTests {
    @Test("a field difference names each differing field with expected and got values")
    func fieldDifferences() {
        var expected = ContactRecord(identifier: "a")
        expected.givenName = "Ada"
        expected.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "1"), .init(label: nil, value: "2")]
        var got = expected
        got.phoneNumbers.removeLast()
        got.birthday = "--02-29"
        let differences = FieldDifference.between(expected: expected, got: got)
        #expect(differences.map(\.field) == ["birthday", "phoneNumbers"])
        #expect(differences[0].expected == "absent" && differences[0].got == "\"--02-29\"")
        #expect(differences[1].description.hasPrefix("phoneNumbers: expected [{"))
        #expect(FieldDifference.between(expected: expected, got: expected).isEmpty)
    }

    @Test(
        "the comparison covers every encoded field of ContactRecord, whatever fields it has",
        arguments: 0..<RichContacts.shapeCount)
    func comparisonIsGeneric(shape: Int) throws {
        let record = RichContacts.make("x", shape: shape, salt: 1)
        let encoded = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        let differences = FieldDifference.between(expected: record, got: ContactRecord(identifier: "x"))
        // Every key the record encodes (but its identifier) is reported, so a field added later is too.
        #expect(Set(differences.map(\.field)) == Set(encoded.keys).subtracting(["identifier"]))
    }

    @Test("the rich contacts together use every field of the model")
    func richContactsCoverTheModel() throws {
        var keys = Set<String>()
        for shape in 0..<RichContacts.shapeCount {
            let record = RichContacts.make("x", shape: shape, salt: 3)
            let encoded = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
            keys.formUnion(encoded.keys)
        }
        var everything = RichContacts.make("x", shape: 0, salt: 3)
        everything.postalAddresses = RichContacts.make("x", shape: 3, salt: 3).postalAddresses
        let all = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(everything)) as? [String: Any])
        #expect(keys == Set(all.keys))
        #expect(RichContacts.make("x", shape: 1, salt: 0).givenName.isEmpty)
        #expect(RichContacts.make("x", shape: 2, salt: 0).birthday == "--02-29")
    }

    @Test("backend kinds parse and print back; unknown ones say which exist")
    func backendKinds() throws {
        #expect(try ConformanceBackendKind.parse("app-database") == .appDatabase)
        #expect(try ConformanceBackendKind.parse("seed-json") == .seedJSON(file: "ContactItems.json"))
        #expect(try ConformanceBackendKind.parse("seed-json:data/items.json") == .seedJSON(file: "data/items.json"))
        #expect(try ConformanceBackendKind.parse("exec:python3 a.py --x") == .exec(command: "python3 a.py --x"))
        #expect(
            try ConformanceBackendKind.parse("carddav:http://127.0.0.1:5232/u/book/")
                == .carddav(url: "http://127.0.0.1:5232/u/book/"))
        for kind in [
            ConformanceBackendKind.appDatabase, .seedJSON(file: "f.json"), .exec(command: "a b:c"),
            .carddav(url: "https://x/b/"),
        ] {
            #expect(try ConformanceBackendKind.parse(kind.description) == kind)
        }
        #expect(throws: ConformanceBackendError.self) { try ConformanceBackendKind.parse("carddav:ftp://x/book/") }
        #expect(throws: ConformanceBackendError.self) { try ConformanceBackendKind.parse("carddav:") }
        #expect(throws: ConformanceBackendError.self) { try ConformanceBackendKind.parse("exec:") }
        #expect(throws: ConformanceBackendError.self) { try ConformanceBackendKind.parse("app-database:x") }
    }

    @Test("the seed-json backend writes the seed demo's format and compares on its fields only")
    func seedJSONBackend() throws {
        let directory = NSTemporaryDirectory() + "/cps-seedjson-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let backend = SeedJSONBackend(appGroup: AppGroup(path: directory))
        try backend.reset()
        var record = RichContacts.make("s-1", shape: 0, salt: 1)
        try backend.add(record)
        let items = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: directory + "/ContactItems.json"))) as? [[String: Any]])
        #expect(items.count == 1)
        #expect(Set(items[0].keys) == ["identifier", "firstName", "lastName", "phoneNumber", "emailAddress"])
        let stored = try backend.contacts()
        #expect(backend.comparable(record) == backend.comparable(stored[0]))
        record.givenName = "Changed"
        try backend.update(record)
        #expect(try backend.contacts()[0].givenName == "Changed")
        try backend.delete(identifier: "s-1")
        #expect(try backend.contacts().isEmpty)
        #expect(throws: ConformanceBackendError.self) { try backend.update(record) }
    }

    static let sample = ConformanceReport(
        provider: "/p/<demo> & co", seed: 7, operations: 10,
        results: [
            RuleResult(rule: ConformanceRule.c1, status: .pass),
            RuleResult(
                rule: ConformanceRule.d2, status: .fail, explanation: "contact a: note: expected \"x\", got \"y\"\u{1}",
                step: "change batch 1", transcript: ["→ enumerateChanges", "  didUpdate(1 item: a)"],
                reproduce: "contacts-host conformance --rules D2"),
            RuleResult(rule: ConformanceRule.d7, status: .warn, explanation: "a batch carried 4 changes"),
            RuleResult(rule: ConformanceRule.v1, status: .skipped, explanation: "not checked: C1 failed"),
            RuleResult(rule: ConformanceRule.e1, status: .skipped),
        ],
        durationSeconds: 1.5)

    @Test(
        "JUnit XML parses back: one testsuite, one testcase per rule, failure with message and transcript, skipped with reason"
    )
    func junitParsesBack() throws {
        let document = try XMLDocument(data: Data(Self.sample.junitXML.utf8))
        let suite = try #require(document.rootElement())
        #expect(suite.name == "testsuite")
        #expect(suite.attribute(forName: "tests")?.stringValue == "5")
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "2")
        #expect(suite.attribute(forName: "name")?.stringValue == "contact provider conformance: /p/<demo> & co")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == 5)
        let failure = try #require(cases[1].elements(forName: "failure").first)
        #expect(
            failure.attribute(forName: "message")?.stringValue?.hasPrefix("contact a: note: expected \"x\"") == true)
        #expect(failure.stringValue?.contains("didUpdate(1 item: a)") == true)
        #expect(failure.stringValue?.contains("reproduce: contacts-host conformance --rules D2") == true)
        #expect(cases[0].elements(forName: "failure").isEmpty && cases[0].elements(forName: "skipped").isEmpty)
        #expect(cases[2].elements(forName: "system-out").first?.stringValue?.contains("WARN (SHOULD)") == true)
        #expect(
            cases[3].elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue
                == "not checked: C1 failed")
        #expect(
            cases[4].elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue
                == "not selected (--rules)")
    }

    @Test("logs a report points to are copied out of the temporary App Group, and the report points to the copies")
    func logsAreKept() throws {
        let group = NSTemporaryDirectory() + "/cps-keptlogs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: group + "/run/defaultDomain", withIntermediateDirectories: true)
        try Data("provider said hello\n".utf8).write(
            to: URL(fileURLWithPath: group + "/run/defaultDomain/provider.log"))
        var report = Self.sample
        report.results[1].explanation = "the provider did not answer (its log: \(group)/run/defaultDomain/provider.log)"
        let kept = KeptLogs.keep(report, groupPath: group)
        try FileManager.default.removeItem(atPath: group)
        let explanation = try #require(kept.results[1].explanation)
        #expect(!explanation.contains(group))
        let path = try #require(explanation.components(separatedBy: "its log: ").last?.dropLast())
        #expect(FileManager.default.contents(atPath: String(path)) == Data("provider said hello\n".utf8))
        let keptDirectory = try #require(String(path).components(separatedBy: "/run/defaultDomain/").first)
        #expect(keptDirectory.contains("cps-conformance-logs-"))
        #expect((try FileManager.default.attributesOfItem(atPath: keptDirectory)[.posixPermissions] as? Int) == 0o700)
        try FileManager.default.removeItem(atPath: keptDirectory)
        #expect(KeptLogs.keep(Self.sample, groupPath: group) == Self.sample)
    }
}

/// The in-process kit with a backend made for the run's App Group.
@Suite("Conformance kit, in process, with a backend kind", .serialized)
struct ConformanceBackendKindInProcessTests {
    @Test(
        "a seed-json backend in process edits ContactItems.json in the run's App Group; the demo provider does not read it"
    )
    func seedJSONInProcess() async throws {
        final class DemoProvider: ExampleProvider {}
        let report = try await ConformanceKit.run(
            DemoProvider.self, backendKind: .seedJSON(file: "ContactItems.json"),
            options: ConformanceOptions(seed: 3, operations: 20, rules: [.c4]))
        // The demo provider reads the app database, not ContactItems.json: the kit must see nothing arrive.
        let c4 = try #require(report.results.first { $0.rule.id == "C4" })
        #expect(c4.status == .fail, "\(report.text)")
        #expect(c4.explanation?.contains("missing from the system") == true)
    }

    @Test("the report's one-line summary is printed first (under the title) and last; it counts what was checked")
    func summaryFirstAndLast() {
        let rules = Array(ConformanceRule.all.prefix(3))
        let report = ConformanceReport(
            provider: "--xcode-project /p/MyApp.xcodeproj --target MyProvider", seed: 1, operations: 2,
            results: [
                RuleResult(rule: rules[0], status: .pass),
                RuleResult(
                    rule: rules[1], status: .fail, explanation: "broken", reproduce: "contacts-host conformance"),
                RuleResult(rule: rules[2], status: .skipped, explanation: "cannot be checked here"),
            ], durationSeconds: 1.5)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(report.summary == "1 passed, 1 failed, 0 warnings, 1 not checked in 1.50 s")
        #expect(
            lines[0] == "Conformance of --xcode-project /p/MyApp.xcodeproj --target MyProvider (seed 1, 2 operations)")
        #expect(lines[1] == report.summary, "\(report.text)")
        #expect(lines.last == report.summary, "\(report.text)")
    }
}
