import ContactProviderConformance
import Foundation
import Testing
import TestSupport

/// The conformance kit with the `carddav:` backend: it edits a live Radicale over HTTP and checks
/// the `carddav-provider` example, a real process, against every rule.
@Suite("End to end: the conformance kit through carddav: against a live Radicale")
struct CardDAVConformanceTests {
    @Test("carddav-provider passes every MUST rule with the carddav: backend",
        .enabled(if: PythonTestTools.shouldRun, Comment(rawValue: PythonTestTools.skipReason)))
    func carddavProviderConforms() async throws {
        let server = try RadicaleServer(python: try PythonTestTools.python())
        defer { server.stop() }
        let url = URL(string: "kit/book/", relativeTo: server.baseURL)!.absoluteString
        let backend = try CardDAVBackend(argument: url)
        try backend.reset()  // creates the address book
        var options = ConformanceOptions(seed: 7, operations: 60)
        options.timeoutSeconds = 20
        let report = try await ConformanceKit.run(executable: BuiltProducts.path("carddav-provider"), backend: backend, options: options)
        #expect(report.passed, "\(report.text)")
        #expect(!report.results.isEmpty)
        #expect(report.results.contains { $0.status == .pass }, "no rule passed: \(report.text)")
    }

    @Test("carddav: needs an http(s) URL with a host")
    func badArgument() {
        #expect(throws: CardDAVBackendError.self) { try CardDAVBackend(argument: "ftp://example.com/book/") }
        #expect(throws: CardDAVBackendError.self) { try CardDAVBackend(argument: "not a url") }
    }
}
