import Foundation
import TestSupport
import Testing

/// `contacts-host conformance` against the built example executables, over real pipes and processes.
@Suite("End to end: contacts-host conformance")
struct ConformanceCLITests {
    /// `provider` with `bug` as its BAD_PROVIDER_BUG (the flaw bad-provider carries), if any.
    private func conformance(_ provider: String, bug: String? = nil, _ extra: [String] = []) throws -> ProcessResult {
        return try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = bug
            let result = try HostRunner.process.run(
                ["conformance", "--extension", BuiltProducts.path(provider), "--seed", "9", "--operations", "60"]
                    + extra, environment: environment)
            // The kit works in its own temporary App Group: the user's is untouched.
            #expect(!FileManager.default.fileExists(atPath: group.path + "/contacts"))
            return result
        }
    }

    @Test("the demo provider passes every rule (exit 0)")
    func demoPasses() throws {
        let result = try conformance("demo-provider")
        #expect(result.exitCode == 0, "\(result)")
        // 25: T1 included, the App Group database can fail for a moment (issue 43, class 5).
        #expect(result.stdout.contains("25 passed, 0 failed"), "\(result)")
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "each known-bad provider fails the rule it breaks (exit 1)",
        arguments: [
            ("changing-marker", "C2"), ("stuck-more-coming", "D4"),
            ("marker-after-snapshot", "D3"), ("calls-after-return", "C1"),
        ])
    func knownBad(bug: String, rule: String) throws {
        let result = try conformance("bad-provider", bug: bug, ["--json"])
        #expect(result.exitCode == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        let entry = try #require(results.first { ($0["rule"] as? [String: Any])?["id"] as? String == rule })
        #expect(entry["status"] as? String == "fail", "\(entry)")
        let reproduce = try #require(entry["reproduce"] as? String)
        #expect(reproduce.contains("--seed 9"))
        #expect(reproduce.contains("--rules \(rule)"))
    }

    @Test("the human report is a table with the failure's explanation and reproduction")
    func humanReport() throws {
        let result = try conformance("bad-provider", bug: "stuck-more-coming", ["--rules", "D4"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("D4    MUST    fail"))
        #expect(result.stdout.contains("FAIL D4: moreComing batches advance the anchor"))
        #expect(result.stdout.contains("contacts-host conformance --extension"))
        #expect(result.stdout.contains("  reproduce: /"))
        // Rules --rules left out are counted in one line, not listed (issue 43, item 8).
        #expect(!result.stdout.contains("C1    MUST"))
        #expect(result.stdout.contains("other rules not selected by --rules)"), "\(result)")
    }

    @Test("bad arguments are usage errors (exit 2)")
    func usage() throws {
        try withTemporaryAppGroup { group in
            for arguments in [
                ["conformance"], ["conformance", "--extension", "x", "--rules", "Z9"],
                ["conformance", "--extension", "x", "--seed", "-1"],
            ] {
                let result = try HostRunner.process.run(arguments, in: group)
                #expect(result.exitCode == 2, "\(arguments): \(result)")
                #expect(result.stderr.split(separator: "\n").count == 1)
                #expect(result.stdout.isEmpty)
            }
        }
    }
}
