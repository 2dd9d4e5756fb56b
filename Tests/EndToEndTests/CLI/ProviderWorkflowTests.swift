import ContactProviderConformance
import Foundation
import FoundationXML
import TestSupport
import Testing

/// The GitHub Actions workflow the CI article gives provider developers (`Examples/ci/provider-ci.yml`):
/// the article shows the file as it is, and `Scripts/run-workflow.sh` runs every one of its `run:` steps,
/// in order, against a provider package outside the repository's sources, so a changed workflow that no
/// longer works fails here (and so in `.ci/run`, which runs `swift test`).
///
/// The package is a copy of `Examples/provider-package` in `.build/provider-ci/MyProvider` (ignored by
/// git, beside a link to this checkout named `ContactProviderSimulator`, the layout the workflow's
/// checkouts make); its `.build` is kept between runs, so after the first run (minutes on 2 cores) the
/// steps rebuild only what changed.
@Suite("The provider CI workflow: shown in the CI article as it is, and run step by step against a provider package")
struct ProviderWorkflowTests {
    static let workflowPath = "Examples/ci/provider-ci.yml"
    static let articlePath =
        "Sources/ContactProviderConformance/ContactProviderConformance.docc/ContinuousIntegration.md"

    private static var root: String { PythonTestTools.repositoryRoot }

    private static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    @Test("The CI article shows the workflow file byte for byte; the example package has the walkthrough's provider")
    func articleShowsTheFile() throws {
        let workflow = try Self.read(Self.workflowPath)
        let article = try Self.read(Self.articlePath)
        #expect(
            article.contains("<!-- checked: \(Self.workflowPath) -->\n```yaml\n" + workflow + "```\n"),
            "\(Self.articlePath) must show \(Self.workflowPath) exactly, after its checked marker")
        let walkthrough = try Self.read("Sources/ContactProvider/ContactProvider.docc/WritingAProvider.md")
        let marker = "<!-- walkthrough file: Sources/MyProvider/Provider.swift -->\n```swift\n"
        let start = try #require(walkthrough.range(of: marker))
        let block = String(walkthrough[start.upperBound...]).components(separatedBy: "\n```")[0]
        // The same code; only the line wrapping differs (the copy is formatted by the repository's lint).
        let copy = try Self.read("Examples/provider-package/Sources/MyProvider/Provider.swift")
        #expect(copy.filter { !$0.isWhitespace } == block.filter { !$0.isWhitespace })
    }

    @Test(
        "The workflow uses the Swift image this toolchain is, runs swift test with JUnit output, the kit, and a report")
    func workflowShape() throws {
        let workflow = try Self.read(Self.workflowPath)
        let image = try #require(
            workflow.components(separatedBy: "\n").first { $0.contains("container: swift:") }?
                .components(separatedBy: "swift:").last)
        let version = try ProcessRunner.run("/usr/bin/env", ["swift", "--version"])
        #expect(
            version.stdout.contains("Swift version \(image).") || version.stdout.contains("Swift version \(image) "),
            "the workflow's image swift:\(image) is not the toolchain the steps ran with here: \(version.stdout)")
        #expect(workflow.contains("swift test --package-path MyProvider --xunit-output tests.xml"))
        #expect(workflow.contains("contacts-host conformance") && workflow.contains("--junit conformance.xml"))
        #expect(workflow.contains("- uses: mikepenz/action-junit-report@"), "a step that publishes the JUnit files")
    }

    /// The workflow's `run:` steps, counted from the file itself (not with the script's parser).
    static func runStepCount(_ workflow: String) -> Int {
        workflow.components(separatedBy: "\n").filter {
            let text = $0.trimmingCharacters(in: .whitespaces)
            return text.hasPrefix("- run:") || text.hasPrefix("run:")
        }.count
    }

    /// The `testcase` elements of the JUnit file at `path`, after checking that it parses as a test report.
    static func testCases(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [XMLElement] {
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        let rootName = document.rootElement()?.name
        #expect(
            rootName == "testsuites" || rootName == "testsuite", "\(path): root element \(rootName ?? "none")",
            sourceLocation: sourceLocation)
        return try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
    }

    @Test("Scripts/run-workflow.sh runs every run: step in order; the tests' and the kit's JUnit files exist and parse")
    func runsEveryStep() throws {
        let workflow = try Self.read(Self.workflowPath)
        let workspace = Self.root + "/.build/provider-ci"
        try withTemporaryAppGroup { group in
            var environment = group.environment
            environment["GITHUB_RUN_NUMBER"] = "7"
            let result = try ProcessRunner.run(
                Self.root + "/Scripts/run-workflow.sh", ["--workspace", workspace], environment: environment)
            #expect(result.exitCode == 0, "the workflow's steps failed:\n\(result)")

            let log = try String(contentsOfFile: workspace + "/steps-run.log", encoding: .utf8)
            let ran = log.components(separatedBy: "\n").filter { $0.hasPrefix("run ") }
            let numbers = ran.compactMap { Int($0.dropFirst("run ".count)) }
            #expect(ran.count == Self.runStepCount(workflow), "run: steps in the file vs. run:\n\(log)")
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "in order, once each: \(log)")

            let conformance = try Self.testCases(workspace + "/conformance.xml")
            #expect(conformance.count == ConformanceRule.all.count, "one testcase per rule")
            #expect(conformance.allSatisfy { $0.elements(forName: "failure").isEmpty }, "the provider conforms")
            let swiftTesting = try Self.testCases(workspace + "/tests-swift-testing.xml")
            #expect(
                swiftTesting.contains {
                    ($0.attribute(forName: "name")?.stringValue ?? "").contains("providerConforms")
                },
                "the package's own test is in the report: \(swiftTesting.map(\.xmlString))")
            #expect(swiftTesting.allSatisfy { $0.elements(forName: "failure").isEmpty })
            // XCTest's own file, tests.xml, is written only when the package has XCTest tests; this one has none.
            if FileManager.default.fileExists(atPath: workspace + "/tests.xml") {
                _ = try Self.testCases(workspace + "/tests.xml")
            }
        }
    }
}
