import Foundation
import TestSupport
import Testing

/// `contacts-host conformance --html` (issue 45) from a real kit run against a known-bad provider, opened
/// in a real headless chromium from file://.
@Suite("End to end: the kit's HTML page from a real run, in a real browser")
struct ConformanceHTMLPageTests {
    @Test("a failing run's page loads quietly, shows pixels, and holds every rule id and every failed contact's name")
    func failingRunPage() throws {
        try withTemporaryAppGroup { group in
            let page = group.path + "/conformance.html"
            var environment = group.environment
            environment["BAD_PROVIDER_BUG"] = "field-loss"
            let result = try HostRunner.process.run(
                [
                    "conformance", "--extension", BuiltProducts.path("bad-provider"), "--seed", "9", "--operations",
                    "30",
                    "--rules", "C1,F1,D2,V1", "--json", "--html", page,
                ], environment: environment)
            #expect(result.exitCode == 1, "\(result)")
            let outcomes = try ConformanceHarness.outcomes(result)
            #expect(ConformanceHarness.rules(outcomes, "fail").contains("F1"), "\(result)")
            let source = try String(contentsOfFile: page, encoding: .utf8)
            #expect(ChromiumTool.urls(in: source).isEmpty, "\(ChromiumTool.urls(in: source))")

            let load = try ChromiumTool.load(page)
            #expect(load.consoleMessages.isEmpty, "\(load.consoleMessages)")
            #expect(load.networkRequests.isEmpty, "\(load.networkRequests)")
            for id in outcomes.keys { #expect(load.dom.contains(">\(id)<"), "rule \(id) is not on the page") }
            // Every contact the failures name (`contact ID (Name…)`) is on the page by name.
            let names = outcomes.values.filter { $0.status == "fail" }.flatMap { outcome in
                outcome.explanation.matches(of: /contact [^ ]+ \(([^);]+)/).map { String($0.1) }
            }
            #expect(!names.isEmpty, "the F1 failure names no contact: \(outcomes["F1"]?.explanation ?? "")")
            for name in Set(names) {
                #expect(load.dom.contains(name.replacingOccurrences(of: "&", with: "&amp;")), "\(name)")
            }
            #expect(load.dom.contains("FAILED") && load.dom.contains("<svg"))
            #expect(load.dom.contains("stores diverge here"))

            let picture = try ChromiumTool.screenshot(page, width: 1200, height: 900)
            #expect(picture.width == 1200 && picture.height == 900)
            #expect(picture.distinctColours > 8, "the screenshot has \(picture.distinctColours) colours: blank")
        }
    }
}
