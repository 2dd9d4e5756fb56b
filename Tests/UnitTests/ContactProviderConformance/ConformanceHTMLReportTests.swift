import AppStores
import Foundation
import TestSupport
import Testing

@testable import ContactProviderConformance

/// The kit's HTML page (issue 45): a fixed report gives a fixed page (`Tests/Fixtures/HTML`, re-record
/// with `CPS_RECORD_GOLDEN=1`), and the pieces read back from the report's sentences are right.
@Suite("Conformance HTML report: verdict first, root causes, sequence diagrams, expected beside actual")
struct ConformanceHTMLReportTests {
    /// A report with a shrunk V1 reproduction, a field-level D2 failure, a warning and skipped rules.
    static let sample = ConformanceReport(
        provider: "/p/<bad> & co", seed: 9, operations: 60,
        results: [
            RuleResult(rule: ConformanceRule.c1, status: .pass),
            RuleResult(
                rule: ConformanceRule.d2, status: .fail,
                explanation:
                    "different in the system than in the data (a missed, altered or lossy update) for 1 contact(s): "
                    + "contact v-1 (Ada Lovelace): familyName: expected \"Lovelace\", got \"Nguyen\"; note: expected \"x\", got absent",
                step: "change batch 1",
                transcript: ["→ enumerateChanges(from: (\"g1\", 3))", "  didUpdate(1 item: v-1)"],
                reproduce: "contacts-host conformance --extension /p/bad --seed 9 --rules D2"),
            RuleResult(
                rule: ConformanceRule.v1, status: .fail,
                explanation:
                    "different in the system than in the data (a missed, altered or lossy update) for 1 contact(s): "
                    + "contact v-2 (Zoë Okafor): phoneNumbers: expected [{\"value\":\"1\"}], got []. Shrunk from 60 to 3 "
                    + "operations: 1. add contact #2; 2. update contact at index 4; 3. signal and wait",
                step: "operation 3 of 3: signal and wait",
                transcript: ["→ enumerateChanges", "  finishEnumeratingChanges"],
                reproduce: "contacts-host conformance --extension /p/bad --seed 9 --rules V1 --operations 60"),
            RuleResult(rule: ConformanceRule.d7, status: .warn, explanation: "a batch carried 4 changes"),
            RuleResult(rule: ConformanceRule.e1, status: .skipped, explanation: "not checked: C1 failed"),
        ],
        durationSeconds: 2.5)

    @Test("a fixed report gives the golden page, byte for byte")
    func golden() throws {
        let page = ConformanceHTMLReport(report: Self.sample).html()
        let file = PythonTestTools.repositoryRoot + "/Tests/Fixtures/HTML/conformance-report.html"
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            try Data(page.utf8).write(to: URL(fileURLWithPath: file))
        }
        let golden = try String(contentsOfFile: file, encoding: .utf8)
        #expect(page == golden, "re-record with CPS_RECORD_GOLDEN=1 and review the diff")
        #expect(page == ConformanceHTMLReport(report: Self.sample).html(), "two writes of one report differ")
    }

    @Test("the verdict comes first, every rule id is on the page, and no URL is")
    func verdictFirstAndSelfContained() {
        let page = ConformanceHTMLReport(report: Self.sample).html(generatedAt: Date(timeIntervalSince1970: 0))
        let verdict = page.range(of: "\u{2717} FAILED: 1 passed, 2 failed, 1 warning")
        let table = page.range(of: "<h2>Every rule")
        #expect(verdict != nil && table != nil && verdict!.lowerBound < table!.lowerBound)
        for result in Self.sample.results { #expect(page.contains(">\(result.rule.id)<"), "\(result.rule.id)") }
        #expect(page.contains("Made 1970-01-01T00:00:00Z"))
        #expect(!page.contains("http:") && !page.contains("https:") && !page.contains("<script"))
        #expect(page.contains("/p/&lt;bad&gt; &amp; co"))
    }

    @Test("failures that share a root cause are one group, the warning another")
    func rootCauses() {
        let groups = RootCause.groups(Self.sample.results)
        #expect(groups.map { $0.findings.map(\.rule.id) } == [["D2", "V1"], ["D7"]])
        #expect(groups[0].title == "different in the system than in the data")
    }

    @Test("V1's shrunk operations become lanes' arrows with the failing signal marked")
    func v1Story() {
        let story = FailureStory(Self.sample.results[2])
        #expect(story.steps.first == .init(from: .app, to: .app, label: "add contact #2"))
        #expect(story.steps.contains(.init(from: .app, to: .system, label: "signalEnumerator()")))
        #expect(story.divergence == story.steps.count - 1)
        #expect(story.contacts.map(\.name) == ["Zoë Okafor"])
        #expect(story.contacts.first?.fields.map(\.field) == ["phoneNumbers"])
    }

    @Test("a trace becomes calls to the provider and observer calls back; contacts differ field by field")
    func traceStory() {
        let story = FailureStory(Self.sample.results[1])
        #expect(story.steps.map(\.from) == [.system, .provider])
        #expect(story.divergence == 1)
        let contact = story.contacts.first
        #expect(contact?.identifier == "v-1" && contact?.name == "Ada Lovelace")
        #expect(
            contact?.fields == [
                FieldDifference(field: "familyName", expected: "\"Lovelace\"", got: "\"Nguyen\""),
                FieldDifference(field: "note", expected: "\"x\"", got: "absent"),
            ])
    }

    @Test("a rule --rules left out reads \"not selected\", a rule that could not run \"skipped\" (issue 43, item 8)")
    func unselectedRules() {
        var report = Self.sample
        report.results.append(RuleResult(rule: ConformanceRule.s1, status: .skipped))
        let page = ConformanceHTMLReport(report: report).html()
        #expect(page.contains("<tr class=\"not-selected\"><td>S1</td>"), "the row of the rule nobody asked for")
        #expect(page.contains("<td class=\"status-not-selected\">not selected</td>"))
        #expect(page.contains("<tr class=\"skipped\"><td>E1</td>"), "a rule that could not be checked is still skipped")
    }

    @Test("an arrow too long for its lanes is named by its call, and written whole right of the provider's lane")
    func longLabels() throws {
        let finish =
            #"didFinishEnumeratingChanges(upTo: ("cps1:65BF8276-D02D-41C8-8174-EAFBA80E6EF9:31", 3), moreComing: true)"#
        var story = FailureStory(Self.sample.results[1])
        story.steps = [
            FailureStory.Step(from: .provider, to: .system, label: finish),
            FailureStory.Step(from: .app, to: .system, label: "signalEnumerator()"),
            FailureStory.Step(from: .provider, to: .system, label: String(repeating: "x", count: 200)),
        ]
        let svg = try #require(SequenceDiagramSVG.svg(story))
        #expect(svg.contains(">didFinishEnumeratingChanges(\u{2026})</text>"), "the call's name beside the arrow")
        #expect(
            svg.contains(HTMLPage.escape(finish) + "</text>"), "the whole text, anchor and all, in the detail column")
        #expect(svg.components(separatedBy: "class=\"detail\"").count - 1 == 2, "a short label has no detail")
        #expect(svg.contains(String(repeating: "x", count: 119) + "\u{2026}</text>"), "cut at 120 characters")
        let width = try #require(svg.firstMatch(of: /width="(\d+)"/).flatMap { Int($0.output.1) })
        #expect(
            width >= SequenceDiagramSVG.detailX + 120 * SequenceDiagramSVG.detailCharacterWidth, "room for the text")
    }
}
