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
