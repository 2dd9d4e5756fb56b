import Foundation
import FoundationXML
import TestSupport
import Testing

/// `contacts-host conformance --backend`: providers with their own store, judged on what they do.
@Suite("End to end: conformance backends")
struct ConformanceBackendCLITests {
    @Test("the vdir example passes every rule through its Swift adapter (exec backend)", arguments: [3, 9, 27])
    func vdirSwiftAdapter(seed: Int) throws {
        let result = try ConformanceHarness.run(
            "vdir-provider",
            [
                "--backend", "exec:" + BuiltProducts.path("vdir-adapter"), "--seed", "\(seed)", "--operations", "80",
                "--json",
            ])
        #expect(result.exitCode == 0, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        // T1 included: the adapter lists the break-store capability and half-writes the cards.
        #expect(ConformanceHarness.rules(outcomes, "pass") == ConformanceHarness.everyRuleButSize, "\(outcomes)")
        #expect(outcomes.count >= 25)
    }

    @Test("the vdir example passes every rule through its Python adapter (exec backend)", arguments: [5, 17])
    func vdirPythonAdapter(seed: Int) throws {
        let result = try ConformanceHarness.run(
            "vdir-provider",
            [
                "--backend", "exec:" + ConformanceHarness.pythonAdapter, "--seed", "\(seed)", "--operations", "80",
                "--json",
            ])
        #expect(result.exitCode == 0, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        #expect(ConformanceHarness.rules(outcomes, "pass") == ConformanceHarness.everyRuleButSize, "\(outcomes)")
    }

    @Test(
        "the seed demo, compiled verbatim and reading ContactItems.json: its content passes, its missing deletions fail, and T1 names its read once at start that keeps a half-written file as an empty list"
    )
    func seedDemoThroughSeedJSON() throws {
        let result = try ConformanceHarness.run(
            "seed-demo-provider", ["--backend", "seed-json", "--seed", "9", "--operations", "60", "--json"])
        #expect(result.exitCode == 1, "\(result)")
        let outcomes = try ConformanceHarness.outcomes(result)
        for rule in ["C1", "C2", "C3", "C4", "C5"] {
            #expect(outcomes[rule]?.status == "pass", "\(rule): \(String(describing: outcomes[rule]))")
        }
        let d2 = try #require(outcomes["D2"])
        #expect(d2.status == "fail")
        #expect(d2.explanation.contains("deleted in the data but still in the system"), "\(d2.explanation)")
        #expect(d2.reproduce.contains("--backend seed-json:ContactItems.json"))
        // Issue 43, items 12 and 13: its real bug. Its `ContactItemDatabase` reads the file once, in
        // `init`, with `try?`: started while the app's in-place save is half done, it keeps an empty list.
        let t1 = try #require(outcomes["T1"])
        #expect(t1.status == "fail")
        #expect(
            t1.explanation.contains("started and asked for content while the store could not be read")
                && t1.explanation.contains("ContactItems.json half written")
                && t1.explanation.contains("the system holds 0 of the 4 contacts"),
            "\(t1.explanation)")
    }

    @Test("the app-database backend is the default and judges the demo provider", arguments: [4, 21])
    func appDatabaseBackend(seed: Int) throws {
        for arguments in [["--backend", "app-database"], []] {
            let result = try ConformanceHarness.run(
                "demo-provider", arguments + ["--seed", "\(seed)", "--operations", "80"])
            #expect(result.exitCode == 0, "\(result)")
            // T1 included: the App Group database can fail for a moment (issue 43, class 5).
            #expect(result.stdout.contains("25 passed, 0 failed, 0 warnings"), "\(result)")
        }
    }

    @Test("an adapter that cannot start, or speaks another protocol version, is one clear error (exit 1)")
    func brokenAdapters() throws {
        let missing = try ConformanceHarness.run("vdir-provider", ["--backend", "exec:/nonexistent/adapter"])
        #expect(missing.exitCode == 1, "\(missing)")
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("exec:/nonexistent/adapter"), "\(missing)")
        // printf answers the greeting with protocol 2 (and prints its extra arguments after it).
        let newer = try ConformanceHarness.run(
            "vdir-provider", ["--backend", #"exec:printf '%s\n' '{"protocol":2,"ok":true}'"#])
        #expect(newer.exitCode == 1, "\(newer)")
        #expect(newer.stderr.contains("speaks protocol 2"), "\(newer)")
    }

    @Test("unknown backends and bad arguments are usage errors naming what is wrong")
    func unknownBackends() throws {
        for (backend, text) in [
            ("nope", "unknown --backend 'nope'"),
            ("carddav:ftp://dav.example/book/", "needs an http or https address book URL"),
            ("exec:", "needs a command"),
        ] {
            let result = try ConformanceHarness.run("demo-provider", ["--backend", backend])
            CLIHarness.expectUsageError(result, mentioning: text)
        }
    }
}

/// `--junit FILE`: the report as JUnit XML, read back with FoundationXML as a CI system would.
@Suite("End to end: conformance JUnit output")
struct ConformanceJUnitCLITests {
    @Test(
        "--junit writes one testsuite with one testcase per rule: failures with message and transcript, skips with a reason"
    )
    func junitFile() throws {
        let directory = NSTemporaryDirectory() + "/cps-junit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/conformance.xml"
        let result = try ConformanceHarness.run(
            "seed-demo-provider", ["--backend", "seed-json", "--rules", "C1,D2", "--junit", file])
        #expect(result.exitCode == 1, "\(result)")
        let document = try XMLDocument(data: try Data(contentsOf: URL(fileURLWithPath: file)))
        let suite = try #require(document.rootElement())
        #expect(suite.name == "testsuite")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == Int(suite.attribute(forName: "tests")?.stringValue ?? ""))
        #expect(cases.count >= 23)
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        let d2 = try #require(cases.first { $0.attribute(forName: "name")?.stringValue?.hasPrefix("D2 ") == true })
        let failure = try #require(d2.elements(forName: "failure").first)
        #expect(
            failure.attribute(forName: "message")?.stringValue?.contains("missing from the system") == true)
        #expect(failure.stringValue?.contains("enumerateChanges") == true, "the transcript")
        #expect(failure.stringValue?.contains("reproduce: ") == true)
        let c1 = try #require(cases.first { $0.attribute(forName: "name")?.stringValue?.hasPrefix("C1 ") == true })
        #expect(c1.elements(forName: "failure").isEmpty && c1.elements(forName: "skipped").isEmpty)
        let v1 = try #require(cases.first { $0.attribute(forName: "name")?.stringValue?.hasPrefix("V1 ") == true })
        #expect(
            v1.elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue
                == "not selected (--rules)")
    }

    @Test("an unwritable --junit file is an error that says the run itself finished")
    func unwritableJUnit() throws {
        let result = try ConformanceHarness.run(
            "demo-provider", ["--rules", "C1", "--junit", "/nonexistent-dir/x.xml"])
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("--junit /nonexistent-dir/x.xml"), "\(result)")
        #expect(result.stderr.contains("the conformance run itself finished"))
    }
}
