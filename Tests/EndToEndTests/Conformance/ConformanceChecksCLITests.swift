import Foundation
import TestSupport
import Testing

/// The kit's newer checks, each against the known-bad provider only it catches (`bad-provider`,
/// which takes its bug from BAD_PROVIDER_BUG).
@Suite("End to end: conformance checks for real providers' bugs")
struct ConformanceChecksCLITests {
    @Test(
        "each known-bad provider fails exactly the rule that catches its bug",
        arguments: [
            ("field-loss", "F1", [String]()), ("reused-identifier", "D8", []), ("anchor-from-now", "D9", []),
            ("stale-final-anchor", "D10", ["W1"]),
            // Issue 30, item 1: consuming the change log at handover fails D6 only; D2 is judged on what
            // the system received, before any probe of the kit's.
            ("forgets-handed-over", "D6", []),
        ])
    func caughtByItsRule(bug: String, rule: String, warnings: [String]) throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--seed", "9", "--operations", "60", "--json"], environment: ["BAD_PROVIDER_BUG": bug])
        #expect(result.exitCode == 1, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(
            ConformanceHarness.rules(outcomes, "fail") == [rule],
            "\(bug): \(outcomes.filter { $0.value.status != "pass" })")
        #expect(ConformanceHarness.rules(outcomes, "warn") == warnings, "\(bug)")
        #expect(outcomes[rule]?.reproduce.contains("--rules \(rule)") == true)
    }

    @Test("field losses name the contact and each field, expected and got")
    func fieldLossMessage() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--rules", "F1", "--json"], environment: ["BAD_PROVIDER_BUG": "field-loss"])
        let f1 = try #require(try ConformanceHarness.outcomes(result)["F1"])
        #expect(f1.explanation.contains("contact kit-42-field-0"), "\(f1.explanation)")
        #expect(f1.explanation.contains("phoneNumbers: expected ["), "\(f1.explanation)")
        #expect(f1.explanation.contains(", got ["), "\(f1.explanation)")
    }

    @Test("a provider that oversizes only its first batch after a launch gets a SHOULD warning (W1), and passes")
    func systemWarningsCount() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--seed", "9", "--operations", "60", "--json"],
            environment: ["BAD_PROVIDER_BUG": "oversized-after-launch"])
        #expect(result.exitCode == 0, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(ConformanceHarness.rules(outcomes, "fail").isEmpty)
        #expect(ConformanceHarness.rules(outcomes, "warn") == ["W1"])
        #expect(outcomes["W1"]?.explanation.contains("R31") == true, "\(String(describing: outcomes["W1"]))")
    }

    @Test(
        "issue 40: a ContactProviderManager created in the extension throws extensionNotFound there, and the kit reports it (W1, R13)"
    )
    func managerInExtension() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--seed", "9", "--operations", "20", "--rules", "W1", "--json"],
            environment: ["BAD_PROVIDER_BUG": "manager-in-extension"])
        let outcomes = try ConformanceHarness.outcomes(result)
        let w1 = try #require(outcomes["W1"], "\(result)")
        #expect(w1.status == "warn", "\(w1)")
        #expect(w1.explanation.contains("R13: a ContactProviderManager was created inside the extension"), "\(w1)")
        #expect(w1.explanation.contains("init threw extensionNotFound"), "\(w1)")
    }

    @Test("a page slower than the page timeout is C1 (enumerationTimeout); every rule that needs content is skipped")
    func slowPage() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--page-timeout", "1", "--json"],
            environment: ["BAD_PROVIDER_BUG": "slow-page", "BAD_PROVIDER_DELAY_SECONDS": "3"])
        #expect(result.exitCode == 1, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(ConformanceHarness.rules(outcomes, "fail") == ["C1"])
        #expect(outcomes["C1"]?.explanation.contains("enumerationTimeout") == true)
        #expect(ConformanceHarness.rules(outcomes, "skipped").count == outcomes.count - 1)
        // Every rule the run selected (all but the size rules, which need --contacts) says why.
        let selected = outcomes.filter { ConformanceHarness.everyRuleButSize.contains($0.key) }.values
        #expect(selected.filter { $0.status == "skipped" }.allSatisfy { $0.explanation.contains("C1 failed") })
        #expect(outcomes["C1"]?.reproduce.contains("--page-timeout 1.0") == true)
    }

    @Test("the human report says which rules were not checked and why")
    func skippedInText() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--page-timeout", "1"],
            environment: ["BAD_PROVIDER_BUG": "slow-page", "BAD_PROVIDER_DELAY_SECONDS": "3"])
        #expect(result.stdout.contains("SKIP C2, C3, C4, C5, C6: not checked: C1 failed"), "\(result)")
        #expect(result.stdout.contains("24 not checked"), "\(result)")
    }

    @Test("a reproduce line runs when pasted into a shell, with its backend, seed and rule")
    func reproduceInShell() throws {
        let first = try ConformanceHarness.run(
            "seed-demo-provider", ["--backend", "seed-json", "--seed", "5", "--operations", "40", "--json"])
        let reproduce = try #require(try ConformanceHarness.outcomes(first)["D2"]?.reproduce)
        #expect(reproduce.hasPrefix("/"), "the host's absolute path: \(reproduce)")
        try withTemporaryAppGroup { group in
            let again = try ProcessRunner.run("/bin/sh", ["-c", reproduce + " --json"], environment: group.environment)
            #expect(again.exitCode == 1, "\(again)")
            let outcomes = try ConformanceHarness.outcomes(again)
            #expect(outcomes["D2"]?.status == "fail")
            #expect(
                ConformanceHarness.rules(outcomes, "pass").isEmpty
                    && ConformanceHarness.rules(outcomes, "fail") == ["D2"])

            // An exec backend's command has spaces: the line quotes it, and pasted it gives the same verdict.
            let bug = try ConformanceHarness.run(
                "bad-provider",
                [
                    "--backend", "exec:" + BuiltProducts.path("vdir-adapter") + " --unused-flag", "--rules", "D8",
                    "--json",
                ],
                environment: ["BAD_PROVIDER_BUG": "reused-identifier"])
            let line = try #require(try ConformanceHarness.outcomes(bug)["D8"]?.reproduce, "\(bug)")
            #expect(line.contains("'exec:"), "\(line)")
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = "reused-identifier"
            let pasted = try ProcessRunner.run("/bin/sh", ["-c", line + " --json"], environment: environment)
            #expect(try ConformanceHarness.outcomes(pasted)["D8"]?.status == "fail", "\(pasted)")
        }
    }

    @Test(
        "issue 30, items 1, 2, 4: the Xcode-template provider (destructive change tracking that keeps the committed anchor, Set-ordered pages) passes every MUST rule through seed-json"
    )
    func templateProviderThroughSeedJSON() throws {
        let result = try ConformanceHarness.run("template-provider", ["--backend", "seed-json", "--json"])
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(ConformanceHarness.rules(outcomes, "fail").isEmpty, "\(outcomes.filter { $0.value.status == "fail" })")
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test("issue 30, item 5: an invalidate() that never returns fails L2 alone; L1 and L3 still pass")
    func hangingInvalidateIsL2Alone() throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--rules", "L1,L2,L3", "--page-timeout", "2", "--json"],
            environment: ["BAD_PROVIDER_BUG": "hanging-invalidate"])
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(
            ConformanceHarness.rules(outcomes, "fail") == ["L2"], "\(outcomes.filter { $0.value.status != "pass" })")
        #expect(ConformanceHarness.rules(outcomes, "pass") == ["L1", "L3"])
        #expect(outcomes["L2"]?.explanation.contains("did not return within") == true)
    }

    @Test(
        "issue 30, item 5: D10 and W1 alone, as a failure's reproduce line runs them, catch the bugs they catch in a full run",
        arguments: [("stale-final-anchor", "D10", "fail"), ("oversized-after-launch", "W1", "warn")])
    func crossCuttingRulesAlone(bug: String, rule: String, status: String) throws {
        let result = try ConformanceHarness.run(
            "bad-provider", ["--seed", "9", "--operations", "60", "--rules", rule, "--json"],
            environment: ["BAD_PROVIDER_BUG": bug])
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(outcomes[rule]?.status == status, "\(bug): \(outcomes.filter { $0.value.status != "skipped" })")
    }
}
