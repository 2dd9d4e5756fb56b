import Foundation
import TestSupport
import Testing

/// Issue 43, item 8: where the kit holds evidence of the mistake behind a symptom (the anchors' bytes,
/// the calls of the page or batch before), its report names the mistake first, in words a provider
/// author acts on. Each message comes from a real run of a `bad-provider` flaw (the provider a process
/// of its own) at the default seed, and its report is golden (`Tests/Fixtures/Reports`, re-record
/// with `CPS_RECORD_GOLDEN=1`); the demo provider, the correct twin, passes the same rule.
@Suite("End to end: the report names the mistake, not only the symptom")
struct LikelyMistakeReportTests {
    struct Flaw: CustomTestStringConvertible, Sendable {
        var bug: String
        var rule: String
        /// The words that name the mistake.
        var words: String
        var golden: String { "likely-mistake-\(bug).txt" }
        var testDescription: String { "\(bug) (\(rule))" }
    }

    static let flaws: [Flaw] = [
        Flaw(
            bug: "repeats-last-item", rule: "C3",
            words: "the page said its next page starts one item early (off by one)"),
        Flaw(
            bug: "ends-changes-one-early", rule: "D10",
            words: "moreComing was false with one change still to come (off by one)"),
        Flaw(
            bug: "prunes-deletions", rule: "E1",
            words: "deletions were pruned from the change log while an anchor still needed them"),
        Flaw(bug: "versions-as-text", rule: "D2", words: "anchor versions compare as text"),
    ]

    @Test(
        "the flaw's report names its mistake, byte for byte the golden text; the correct twin passes", arguments: flaws)
    func golden(flaw: Flaw) throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--rules", flaw.rule], environment: ["BAD_PROVIDER_BUG": flaw.bug])
        #expect(result.exitCode == 1, "\(result)")
        let text = Self.normalised(result.stdout)
        #expect(text.contains("FAIL \(flaw.rule): "), "\(text)")
        #expect(text.contains("  why: " + flaw.words), "\(text)")
        let file = PythonTestTools.repositoryRoot + "/Tests/Fixtures/Reports/" + flaw.golden
        if ProcessInfo.processInfo.environment["CPS_RECORD_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }
        #expect(text == (try String(contentsOfFile: file, encoding: .utf8)), "re-record with CPS_RECORD_GOLDEN=1")

        let twin = try ConformanceHarness.run("demo-provider", ["--rules", flaw.rule])
        #expect(twin.exitCode == 0, "\(twin)")
        #expect(twin.stdout.contains(flaw.rule.padding(toLength: 6, withPad: " ", startingAt: 0) + "MUST    pass"))
        #expect(!twin.stdout.contains("FAIL"), "\(twin)")
    }

    @Test(
        "a full run of moreComing off by one: its summary, first and last, says to start with D10 and names the mistake, whose finding comes first, before the symptoms it causes elsewhere (D2, L3, V1)"
    )
    func summaryNamesTheMistakeToFixFirst() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", [], environment: ["BAD_PROVIDER_BUG": "ends-changes-one-early"])
        #expect(result.exitCode == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let summary = try #require(lines.dropFirst().first, "\(result)")
        #expect(
            summary.contains("; start with D10: moreComing was false with one change still to come ("),
            "\(summary)")
        #expect(lines.last(where: { !$0.isEmpty }) == summary)
        // The symptoms of the same batch's moreComing are still reported, after it.
        let text = result.stdout
        let order = [
            "ROOT CAUSE 1 of", "FAIL D10: ", "  why: moreComing was false with one change still to come (off by one)",
            "FAIL D2: ",
        ]
        let positions = order.map { text.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
    }

    /// The report with what changes from run to run taken out: the run's time, the generation in the
    /// markers (a new UUID per store), and the absolute paths of the host and the provider.
    static func normalised(_ report: String) -> String {
        var text = report
        let replacements = [
            (#"in [0-9]+\.[0-9]+ s"#, "in <seconds> s"),
            (#"cps1:[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}:"#, "cps1:<generation>:"),
            (#"/\S*/(contacts-host|bad-provider)(?=[\s)]|$)"#, "$1"),
        ]
        for (pattern, template) in replacements {
            let expression = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            text = expression.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
        }
        return text
    }
}
