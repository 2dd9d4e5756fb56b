import ContactProviderConformance
import Foundation
import FoundationXML
import TestSupport
import Testing

/// The CI recipe for an app whose extension lives in an Xcode project (`Examples/ci/xcode-provider-ci.yml`):
/// shown in the CI article as it is, and run step by step by `Scripts/run-workflow.sh` against an Xcode
/// project with one Contact Provider extension, as `ProviderWorkflowTests` runs the provider workflow.
@Suite("The Xcode CI recipe: shown in the CI article as it is, and run step by step against an Xcode project")
struct XcodeWorkflowTests {
    static let workflowPath = "Examples/ci/xcode-provider-ci.yml"

    private static var root: String { PythonTestTools.repositoryRoot }

    /// An app's repository as the recipe checks it out: `MyApp.xcodeproj` with one extension target,
    /// `MyProvider`, in a synchronized folder (the Xcode template's provider, its App Group entitled).
    static func appRepository() throws -> XcodeFixture {
        var fixture = XcodeFixture(name: "MyApp")
        for name in ["Provider.swift", "RootContainerEnumerator.swift", "ContactItemDatabase.swift"] {
            fixture.file("MyProvider/\(name)", try XcodeFixtures.templateFile(name))
        }
        fixture.file("MyProvider/Info.plist", XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint))
        fixture.file(
            "MyProvider/MyProvider.entitlements", XcodeFixture.entitlements(appGroups: [XcodeFixtures.templateGroup]))
        let folder = fixture.synchronizedFolder("MyProvider")
        fixture.mainGroupChildren = [folder]
        fixture.target(
            "MyProvider", productType: XcodeFixture.extensionKitProduct, synchronizedFolders: [folder],
            settings: [
                ("SWIFT_VERSION", .string("6.0")), ("INFOPLIST_FILE", .string("MyProvider/Info.plist")),
                ("CODE_SIGN_ENTITLEMENTS", .string("MyProvider/MyProvider.entitlements")),
            ])
        return fixture
    }

    @Test("The CI article shows the Xcode recipe byte for byte, beside the provider workflow")
    func articleShowsTheFile() throws {
        let workflow = try String(contentsOfFile: Self.root + "/" + Self.workflowPath, encoding: .utf8)
        let article = try String(
            contentsOfFile: Self.root + "/" + ProviderWorkflowTests.articlePath, encoding: .utf8)
        #expect(
            article.contains("<!-- checked: \(Self.workflowPath) -->\n```yaml\n" + workflow + "```\n"),
            "\(ProviderWorkflowTests.articlePath) must show \(Self.workflowPath) exactly, after its checked marker")
        #expect(workflow.contains("contacts-host conformance") && workflow.contains("--xcode-project MyApp"))
        #expect(workflow.contains("--junit conformance.xml"))
        #expect(workflow.contains("- uses: mikepenz/action-junit-report@"), "a step that publishes the JUnit file")
    }

    @Test(
        "Scripts/run-workflow.sh runs every run: step of the Xcode recipe in order; the kit's JUnit file names the project and passes"
    )
    func runsEveryStep() throws {
        let workflow = try String(contentsOfFile: Self.root + "/" + Self.workflowPath, encoding: .utf8)
        // Kept between runs (ignored by git), so after the first run the simulator's build is incremental.
        let workspace = Self.root + "/.build/xcode-ci"
        let folder = try XcodeHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var fixture = try Self.appRepository()
        let repository = folder + "/repository"
        try fixture.write(to: repository)
        try withTemporaryAppGroup { group in
            var environment = XcodeHarness.environment(group)
            environment["GITHUB_RUN_NUMBER"] = "7"
            let result = try ProcessRunner.run(
                Self.root + "/Scripts/run-workflow.sh",
                [
                    "--workflow", Self.root + "/" + Self.workflowPath, "--package", repository, "--checkout", "MyApp",
                    "--workspace", workspace + "/ci",
                ],
                environment: environment)
            #expect(result.exitCode == 0, "the recipe's steps failed:\n\(result)")

            let log = try String(contentsOfFile: workspace + "/ci/steps-run.log", encoding: .utf8)
            let ran = log.components(separatedBy: "\n").filter { $0.hasPrefix("run ") }
            let numbers = ran.compactMap { Int($0.dropFirst("run ".count)) }
            #expect(
                ran.count == ProviderWorkflowTests.runStepCount(workflow), "run: steps in the file vs. run:\n\(log)")
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "in order, once each: \(log)")

            let junit = workspace + "/ci/conformance.xml"
            let cases = try ProviderWorkflowTests.testCases(junit)
            #expect(cases.count == ConformanceRule.all.count, "one testcase per rule")
            #expect(cases.allSatisfy { $0.elements(forName: "failure").isEmpty }, "the extension conforms")
            let report = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(
                report.contains(
                    "<testsuite name=\"contact provider conformance: --xcode-project \(workspace)/ci/MyApp/MyApp.xcodeproj --target MyProvider\""
                ), "the suite names the project, not a cache's build: \(report.prefix(400))")
        }
    }
}
