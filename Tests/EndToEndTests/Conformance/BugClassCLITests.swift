import Foundation
import TestSupport
import Testing

/// Issue 30, items 7 to 12: each bug class the kit did not see has a provider with exactly
/// that flaw, which fails its rule at the default seed (in words naming the shape), and whose
/// printed `reproduce:` line, run as printed, fails the same rule. The correct twins (the demo
/// provider, and the template through seed-json) pass: ConformanceCLITests, ConformanceBackendCLITests.
@Suite("End to end: the bug classes of providers with their own store")
struct BugClassCLITests {
    struct Flaw: CustomTestStringConvertible, Sendable {
        var provider: String
        var environment: [String: String]
        var backend: [String]
        var rule: String
        /// Words the failure must contain (the shape it names).
        var words: String
        var testDescription: String { environment.values.joined() }
    }

    static let flaws: [Flaw] = [
        // Item 7: identifier shapes (an upper-case twin of a lowercase identifier).
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "case-folded-identifiers"], backend: [],
            rule: "C4", words: "differs from another only in case"),
        // Item 9: natural-key collisions in one page.
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "dedupes-by-name"], backend: [], rule: "C4",
            words: "the same name as another contact"),
        // Item 11: an edit of a field the store holds (the phone), not of fields it cannot hold.
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "fingerprint-without-phone"],
            backend: ["--backend", "seed-json"], rule: "D2", words: "phoneNumbers: expected"),
        // Item 8: a birthday through Date and Calendar.current, caught with the provider west of UTC.
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "birthday-through-date"], backend: [],
            rule: "F1", words: "in time zone Pacific/Honolulu"),
        // Item 12: changes recomputed and handed over by position, with edits between two batches.
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "positional-change-batches"], backend: [],
            rule: "D11", words: "added between two batches"),
        // Item 10: a read that fails for a moment, answered with an expiry error.
        Flaw(
            provider: "bad-provider", environment: ["BAD_PROVIDER_BUG": "expires-on-read-error"],
            backend: ["--backend", "seed-json"], rule: "T1", words: "pageExpired"),
    ]

    @Test(
        "a provider with the flaw fails its rule at the default seed, in words, and its reproduce line fails it again",
        arguments: flaws)
    func caughtAndReproduced(flaw: Flaw) throws {
        let result = try ConformanceHarness.run(
            flaw.provider, flaw.backend + ["--operations", "40", "--json"], environment: flaw.environment)
        #expect(result.exitCode == 1, "\(result)")
        let outcome = try #require(try ConformanceHarness.outcomes(result)[flaw.rule])
        #expect(outcome.status == "fail", "\(outcome)")
        #expect(outcome.explanation.contains(flaw.words), "\(outcome.explanation)")
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment.merge(flaw.environment) { _, new in new }
            let again = try ProcessRunner.run(
                "/bin/sh", ["-c", outcome.reproduce + " --json"], environment: environment)
            let outcomes = try ConformanceHarness.outcomes(again)
            #expect(ConformanceHarness.rules(outcomes, "fail") == [flaw.rule], "\(outcome.reproduce): \(again)")
        }
    }

    @Test("issue 30, item 3: a provider whose app calls manager.reset() with its store passes when the kit does so too")
    func appThatCallsManagerReset() throws {
        let environment = ["BAD_PROVIDER_BUG": "relies-on-app-reset"]
        let alone = try ConformanceHarness.run(
            "bad-provider", ["--operations", "40", "--json"], environment: environment)
        #expect(ConformanceHarness.rules(try ConformanceHarness.outcomes(alone), "fail") == ["E1"], "\(alone)")
        let withReset = try ConformanceHarness.run(
            "bad-provider", ["--operations", "40", "--reset-calls-manager-reset", "--json"], environment: environment)
        #expect(withReset.exitCode == 0, "\(withReset)")
        #expect(try ConformanceHarness.outcomes(withReset)["E1"]?.status == "pass")
    }

    @Test("the template, which answers a half-written file with a resumable error, passes T1 through seed-json")
    func templateKeepsContactsThroughAFailure() throws {
        let result = try ConformanceHarness.run(
            "template-provider", ["--backend", "seed-json", "--rules", "T1", "--json"])
        #expect(try ConformanceHarness.outcomes(result)["T1"]?.status == "pass", "\(result)")
    }

    @Test("a backend that cannot make its store fail skips T1 and says why")
    func t1NeedsABackendThatCanFail() throws {
        // An adapter whose hello lists no capability (every request answered with an empty success):
        // the App Group database's backend can fail since issue 43, class 5.
        let adapter =
            "exec:python3 -c 'import json, sys\nfor line in sys.stdin: print(json.dumps({\"protocol\": 1, \"ok\": True, \"contacts\": []}), flush=True)'"
        let result = try ConformanceHarness.run("demo-provider", ["--backend", adapter, "--rules", "T1", "--json"])
        let outcome = try #require(try ConformanceHarness.outcomes(result)["T1"])
        #expect(outcome.status == "skipped")
        #expect(outcome.explanation.contains("TransientFailureInjecting"), "\(outcome.explanation)")
    }
}
