import ContactProviderConformance
import Foundation
import TestSupport
import Testing

/// The conformance kit with the `carddav:` backend: it edits a live Radicale over HTTP and checks
/// the `carddav-provider` example, a real process, against every rule.
@Suite("End to end: the conformance kit through carddav: against a live Radicale")
struct CardDAVConformanceTests {
    @Test(
        "carddav-provider passes every MUST rule with the carddav: backend",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func carddavProviderConforms() async throws {
        let server = try RadicaleServer(python: try PythonTestTools.python())
        defer { server.stop() }
        let url = URL(string: "kit/book/", relativeTo: server.baseURL)!.absoluteString
        // The command a provider developer runs: `contacts-host conformance --backend carddav:URL`.
        let result = try HostRunner.process.run([
            "conformance", "--extension", BuiltProducts.path("carddav-provider"), "--backend", "carddav:" + url,
            "--seed", "7", "--operations", "60", "--page-timeout", "20",
        ])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(" passed, 0 failed"), "\(result)")
        #expect(!result.stdout.contains("FAIL "), "\(result)")
        // Checked, not skipped: the server fails for a moment through the kit's proxy (issue 43, item 10).
        #expect(result.stdout.contains("T1    MUST    pass"), "\(result)")
        #expect(!result.stdout.contains("not checked"), "\(result)")
    }

    @Test(
        "issue 43, item 10: a CardDAV provider that answers a server's 503 with an expiry error fails T1 (and nothing else), naming the 503, at the default seed and two others; the carddav-provider example passes T1 at each; on Radicale and Xandikos",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func expiryOnAServerErrorFailsT1() async throws {
        let flaw = ["BAD_PROVIDER_BUG": "expires-on-server-error"]
        let python = try PythonTestTools.python()
        for kind in CardDAVServerKind.allCases {
            let server = try kind.start(python: python)
            defer { server.stop() }
            let url = URL(string: server.addressBookPath, relativeTo: server.baseURL)!.absoluteString
            let backend = ["--backend", "carddav:" + url, "--page-timeout", "20"]
            if kind == .radicale {
                let full = try ConformanceHarness.run(
                    "bad-provider", backend + ["--operations", "40", "--json"], environment: flaw)
                #expect(ConformanceHarness.rules(try ConformanceHarness.outcomes(full), "fail") == ["T1"], "\(full)")
            }
            // Each run resets the address book first, so one server serves them in turn.
            for seed in kind == .radicale ? ["42", "7", "1234"] : ["42"] {
                let result = try ConformanceHarness.run(
                    "bad-provider", backend + ["--rules", "T1", "--seed", seed, "--json"], environment: flaw)
                #expect(result.exitCode == 1, "\(kind), seed \(seed): \(result)")
                let outcome = try #require(
                    try ConformanceHarness.outcomes(result)["T1"], "\(kind), seed \(seed): \(result)")
                #expect(outcome.status == "fail", "\(kind), seed \(seed): \(result)")
                #expect(
                    outcome.explanation.contains("503 Service Unavailable")
                        && outcome.explanation.contains("the system lost 6 of the 6 contacts it had"),
                    "\(kind), seed \(seed): \(outcome.explanation)")
                #expect(outcome.reproduce.contains("--rules T1") && outcome.reproduce.contains("carddav:"))

                let twin = try ConformanceHarness.run(
                    "carddav-provider", backend + ["--rules", "T1", "--seed", seed, "--json"])
                #expect(
                    try ConformanceHarness.outcomes(twin)["T1"]?.status == "pass", "\(kind), seed \(seed): \(twin)")
            }
        }
    }

    @Test("--backend carddav: with a bad URL is a usage error naming the backend")
    func badBackendArgument() throws {
        let result = try HostRunner.process.run([
            "conformance", "--extension", BuiltProducts.path("carddav-provider"), "--backend", "carddav:ftp://x/book/",
        ])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("carddav"), "\(result)")
    }

    @Test("carddav: needs an http(s) URL with a host")
    func badArgument() {
        #expect(throws: CardDAVBackendError.self) { try CardDAVBackend(argument: "ftp://example.com/book/") }
        #expect(throws: CardDAVBackendError.self) { try CardDAVBackend(argument: "not a url") }
    }
}
