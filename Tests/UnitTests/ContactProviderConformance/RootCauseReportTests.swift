import Foundation
import TestSupport
import Testing

@testable import ContactProviderConformance

/// Issue 43, item 7: one bug fails many rules, so the report groups findings by root cause and puts
/// the most specific first (a fixed scenario before the random V1, a shorter reproduction before a
/// longer one), and its summary line says where to start. The text report is golden
/// (`Tests/Fixtures/Reports`, re-record with `CPS_RECORD_GOLDEN=1`).
@Suite("Conformance report: the root cause first")
struct RootCauseReportTests {
    /// A finding of `rule` whose explanation starts with `cause` and whose reproduction made `calls` calls.
    static func finding(_ rule: ConformanceRule, _ cause: String, calls: Int, status: RuleResult.Status = .fail)
        -> RuleResult
    {
        RuleResult(
            rule: rule, status: status, explanation: cause + ": contact c-1 (Ada Lovelace)",
            transcript: (0..<calls).map { "call \($0 + 1)" })
    }

    @Test("a fixed report gives the golden text, byte for byte")
    func golden() throws {
        let text = ConformanceHTMLReportTests.sample.text
        let file = PythonTestTools.repositoryRoot + "/Tests/Fixtures/Reports/conformance-report.txt"
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }
        #expect(text == (try String(contentsOfFile: file, encoding: .utf8)), "re-record with CPS_RECORD_GOLDEN=1")
    }

    @Test("the group of the shortest fixed-scenario reproduction comes first; V1 comes last in its group")
    func mostSpecificFirst() {
        let frozen = "the anchor did not move"
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                RuleResult(rule: ConformanceRule.c1, status: .pass),
                Self.finding(ConformanceRule.d1, frozen, calls: 3),
                Self.finding(ConformanceRule.d4, frozen, calls: 5),
                Self.finding(ConformanceRule.e1, "deleted contacts came back", calls: 2),
                Self.finding(ConformanceRule.v1, frozen, calls: 1),
            ],
            durationSeconds: 1)
        let groups = RootCause.groups(report.results)
        #expect(groups.map { $0.findings.map(\.rule.id) } == [["E1"], ["D1", "D4", "V1"]])
        #expect(report.summary.hasSuffix("; start with E1 (2 root causes)"), "\(report.summary)")
        let text = report.text
        let order = [
            "ROOT CAUSE 1 of 2: deleted contacts came back", "FAIL E1", "ROOT CAUSE 2 of 2: the anchor", "FAIL D1",
            "FAIL D4", "FAIL V1",
        ]
        let positions = order.map { text.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
    }

    @Test(
        "a finding that names its mistake (LikelyMistake) comes first, before shorter symptom-only ones, and the summary names the mistake"
    )
    func namedMistakeFirst() {
        let mistake = LikelyMistake.explained(
            "a signal right after a sync that caught up brought 1 update",
            by: "moreComing was false with one change still to come (off by one): the last batch ended the session")
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                Self.finding(ConformanceRule.d2, "missing from the system", calls: 3),
                Self.finding(ConformanceRule.l3, "missing from the system", calls: 2),
                RuleResult(
                    rule: ConformanceRule.d10, status: .fail, explanation: mistake,
                    transcript: (0..<12).map { "call \($0 + 1)" }),
                Self.finding(ConformanceRule.v1, "missing from the system", calls: 1),
            ],
            durationSeconds: 1)
        let groups = RootCause.groups(report.results)
        #expect(groups.map { $0.findings.map(\.rule.id) } == [["D10"], ["L3", "D2", "V1"]])
        #expect(groups.map(\.isNamedMistake) == [true, false])
        #expect(
            report.summary.hasSuffix(
                "; start with D10: moreComing was false with one change still to come (2 root causes)"),
            "\(report.summary)")
        // A symptom-only first finding is named by its rule alone: its words are what the kit saw.
        let symptoms = ConformanceReport(
            provider: "p", seed: 1, operations: 10, results: Array(report.results.filter { $0.rule != .d10 }),
            durationSeconds: 1)
        #expect(symptoms.summary.hasSuffix("; start with L3 (one root cause)"), "\(symptoms.summary)")
    }

    @Test("a failure comes before a warning with a shorter reproduction: a failing run never starts with a warning")
    func failureBeforeWarning() {
        // As the frozen final anchor shows it: W1 warns (R40, the batch returned its starting anchor)
        // after two batches, D10 fails after three.
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                Self.finding(
                    ConformanceRule.d10, "a signal right after a sync that caught up brought 3 updates", calls: 12),
                Self.finding(ConformanceRule.w1, "the system warned 42 time(s)", calls: 8, status: .warn),
            ],
            durationSeconds: 1)
        #expect(RootCause.groups(report.results).map { $0.findings.map(\.rule.id) } == [["D10"], ["W1"]])
        #expect(report.summary.hasPrefix("0 passed, 1 failed, 1 warning in"), "\(report.summary)")
        #expect(report.summary.hasSuffix("; start with D10 (2 root causes)"), "\(report.summary)")
    }

    @Test("one finding: no group heading and no hint in the summary")
    func oneFinding() {
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                RuleResult(rule: ConformanceRule.c1, status: .pass), Self.finding(ConformanceRule.d1, "lost", calls: 2),
            ],
            durationSeconds: 1)
        #expect(report.summary == "1 passed, 1 failed, 0 warnings in 1.00 s")
        #expect(!report.text.contains("ROOT CAUSE"))
    }

    @Test("rules not selected by --rules are counted in one line, not listed as skipped (item 8)")
    func unselectedRulesCounted() {
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                RuleResult(rule: ConformanceRule.s1, status: .pass),
                RuleResult(rule: ConformanceRule.c1, status: .skipped),
                RuleResult(rule: ConformanceRule.c2, status: .skipped),
            ],
            durationSeconds: 1)
        #expect(report.text.contains("S1    MUST    pass"))
        #expect(!report.text.contains("C1    MUST"))
        #expect(report.text.contains("(2 other rules not selected by --rules)"))
    }

    @Test("a run without --rules leaves out only the size rules, and says what they need, not --rules")
    func sizeRulesNotSelected() {
        let report = ConformanceReport(
            provider: "p", seed: 1, operations: 10,
            results: [
                RuleResult(rule: ConformanceRule.c1, status: .pass),
                RuleResult(rule: ConformanceRule.s1, status: .skipped),
                RuleResult(rule: ConformanceRule.s2, status: .skipped),
            ],
            durationSeconds: 1)
        #expect(report.text.contains("(2 other rules not selected: S1, S2 run with --contacts N)"), "\(report.text)")
        #expect(!report.text.contains("--rules"))
    }
}
