import Foundation
import TestSupport
import Testing

/// Issue 30, item 14: the kit's command line, as a developer first meets it.
@Suite("End to end: conformance errors, progress and the rule list")
struct KitUsabilityCLITests {
    @Test("an adapter command that does not exist is named as not found, not as a broken pipe")
    func adapterNotFound() throws {
        let result = try ConformanceHarness.run("demo-provider", ["--backend", "exec:./no-such-adapter.py"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("adapter command not found: './no-such-adapter.py'"), "\(result.stderr)")
        #expect(!result.stderr.contains("Broken pipe"), "\(result.stderr)")
    }

    @Test("a relative adapter path is made absolute, so the reproduce line works from any directory")
    func relativeAdapterPath() throws {
        let directory = BuiltProducts.path("vdir-adapter").split(separator: "/").dropLast().joined(separator: "/")
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = "reused-identifier"
            let result = try HostRunner.process.run(
                [
                    "conformance", "--extension", BuiltProducts.path("bad-provider"), "--backend",
                    "exec:./vdir-adapter",
                    "--rules", "D8", "--json",
                ], environment: environment, currentDirectory: "/" + directory)
            let line = try #require(try ConformanceHarness.outcomes(result)["D8"]?.reproduce, "\(result)")
            #expect(line.contains("exec:/\(directory)/vdir-adapter"), "\(line)")
            let pasted = try ProcessRunner.run(
                "/bin/sh", ["-c", line + " --json"], environment: environment, currentDirectory: "/")
            #expect(try ConformanceHarness.outcomes(pasted)["D8"]?.status == "fail", "\(pasted)")
        }
    }

    @Test("a provider that cannot start ends the run with one error, not a failure per rule")
    func providerThatCannotStart() throws {
        let result = try withTemporaryAppGroup { group in
            try HostRunner.process.run(["conformance", "--extension", "/bin/false"], environment: group.environment)
        }
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stdout.contains("error: the provider could not start, so no rule was checked"), "\(result)")
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        let json = try withTemporaryAppGroup { group in
            try HostRunner.process.run(
                ["conformance", "--extension", "/bin/false", "--json"], environment: group.environment)
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["startFailure"] as? String)?.contains("exited before answering") == true, "\(json)")
        #expect(ConformanceHarness.rules(try ConformanceHarness.outcomes(json), "skipped").count >= 24)
    }

    @Test("--list-rules prints every rule without a provider")
    func ruleList() throws {
        let list = try HostRunner.process.run(["conformance", "--list-rules"])
        #expect(list.exitCode == 0, "\(list)")
        for id in ["C1", "F1", "D9", "T1", "L2", "W1"] {
            #expect(list.stdout.split(separator: "\n").contains { $0.hasPrefix(id + " ") }, "\(id): \(list.stdout)")
        }
    }
}
