import Foundation
import TestSupport
import Testing

/// Issue 40: every provider process has its bundle, as on iOS. `Bundle.main.bundleIdentifier`,
/// `infoDictionary` and `Logger(subsystem: Bundle.main.bundleIdentifier!, …)` work unchanged: from the
/// Xcode project's build settings when the provider is built from one, else the documented default
/// (`com.example.<executable name>`). Through real processes.
@Suite("Porting: every provider has its bundle (Bundle.main from the Xcode project, else the default)")
struct BundleIdentityTests {
    typealias Names = XcodeFixtures.IdentityNames

    /// The group's environment with the provider's logging on and the shared Xcode scratch path.
    private func environment(_ group: TemporaryAppGroup) -> [String: String] {
        var environment = XcodeHarness.environment(group)
        environment["OSLOG_DISABLE"] = nil
        return environment
    }

    @discardableResult
    private func host(
        _ arguments: [String], in group: TemporaryAppGroup, expect code: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try HostRunner.process.run(arguments, environment: environment(group))
        #expect(result.exitCode == code, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        return result
    }

    private func providerLog(_ group: TemporaryAppGroup) throws -> String {
        try String(contentsOfFile: group.path + "/run/defaultDomain/provider.log", encoding: .utf8)
    }

    @Test("a provider built from a package logs under the default identifier, com.example.<executable name>")
    func packageDefault() throws {
        try withTemporaryAppGroup { group in
            let entries = [["identifier": "ada", "name": "Ada"]]
            try JSONSerialization.data(withJSONObject: entries).write(
                to: URL(fileURLWithPath: group.path + "/book.json"))
            let executable = BuiltProducts.path("device-fidelity-provider")
            try host(["enable", "--extension", executable], in: group)
            try host(["signal", "--wait"], in: group)
            let log = try providerLog(group)
            #expect(
                log.contains(
                    "[com.example.device-fidelity-provider:enumerator] info: content: 1 contacts from book.json"),
                "\(log)")
            let plist = try Data(contentsOf: URL(fileURLWithPath: executable + ".appex/Info.plist"))
            let info = try #require(
                try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
            #expect(info["CFBundleIdentifier"] as? String == "com.example.device-fidelity-provider")
            #expect(info["CFBundleShortVersionString"] as? String == "1.0")
            #expect(info["CFBundleVersion"] as? String == "1")
            try host(["disable"], in: group)
        }
    }

    /// A copy of the fidelity provider in a folder of its own (its bundle is beside it, never the
    /// shared build's), `body` run with its path, the folder removed after.
    private func withProviderCopy(named name: String, _ body: (String) throws -> Void) throws {
        let folder = try XcodeHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = folder + "/" + name
        try FileManager.default.copyItem(atPath: BuiltProducts.path("device-fidelity-provider"), toPath: executable)
        try body(executable)
    }

    @Test(
        "a provider built from a package takes its identity from enable's options: Logger under the identifier, the versions, the app's display name as the domain's"
    )
    func packageOptions() throws {
        try withTemporaryAppGroup { group in
            try JSONSerialization.data(withJSONObject: [["identifier": "ada", "name": "Ada"]]).write(
                to: URL(fileURLWithPath: group.path + "/book.json"))
            try withProviderCopy(named: "AcmeProvider") { executable in
                let enabled = try host(
                    [
                        "enable", "--extension", executable, "--bundle-identifier", "com.acme.Contacts.Provider",
                        "--display-name", "Acme Provider", "--marketing-version", "3.1", "--build-number", "7",
                        "--app-display-name", "Acme Contacts",
                    ], in: group)
                #expect(
                    enabled.stdout.contains("bundle com.acme.Contacts.Provider 3.1 (7) in Acme Contacts"), "\(enabled)")
                try host(["signal", "--wait"], in: group)
                let log = try providerLog(group)
                #expect(
                    log.contains("[com.acme.Contacts.Provider:bundle] info: Acme Provider 3.1 (7) for Acme Contacts"),
                    "\(log)")
                #expect(
                    log.contains("[com.acme.Contacts.Provider:enumerator] info: content: 1 contacts from book.json"),
                    "\(log)")
                let app = try Data(contentsOf: URL(fileURLWithPath: executable + ".appex/ContainingApp.plist"))
                let appInfo = try #require(
                    try PropertyListSerialization.propertyList(from: app, format: nil) as? [String: Any])
                // The app's identifier defaults to the prefix Xcode requires.
                #expect(appInfo["CFBundleIdentifier"] as? String == "com.acme.Contacts")
                // Kept until changed: a later enable changing only the build keeps the rest, and ends the
                // running provider so the next one reads the new bundle.
                try host(["enable", "--build-number", "8"], in: group)
                try host(["signal", "--wait"], in: group)
                #expect(
                    try providerLog(group).contains(
                        "[com.acme.Contacts.Provider:bundle] info: Acme Provider 3.1 (8) for Acme Contacts"))
                let kept = try host(["system", "list", "--json"], in: group).stdout
                #expect(kept.contains("\"ada\""), "a new build number is the same app: \(kept)")
                // Another bundle identifier is another app, as another executable is: its system store
                // starts empty, with no sync anchor.
                let renamed = try host(["enable", "--bundle-identifier", "com.acme.Contacts.Other"], in: group)
                #expect(
                    renamed.stderr.contains(
                        "a different extension than the bundle identifier com.acme.Contacts.Provider: the system store starts empty"
                    ),
                    "\(renamed)")
                #expect(
                    try host(["system", "list", "--json"], in: group).stdout.trimmingCharacters(
                        in: .whitespacesAndNewlines) == "[]")
                let resynced = try host(["signal", "--wait", "--json"], in: group).stdout
                #expect(
                    resynced.contains("\"enumeration\":\"content\"") && resynced.contains("\"systemCount\":1"),
                    "\(resynced)")
                try host(["disable"], in: group)
            }
        }
    }

    @Test(
        "an app-side executable given to enable --app-executable has the containing app's bundle: Bundle.main reads as the app's"
    )
    func appExecutable() throws {
        try withTemporaryAppGroup { group in
            try withProviderCopy(named: "AcmeProvider") { executable in
                let app = (executable as NSString).deletingLastPathComponent + "/AcmeContacts"
                try FileManager.default.copyItem(atPath: BuiltProducts.path("app-identity"), toPath: app)
                // Without its bundle, as on Linux before: nil.
                let before = try ProcessRunner.run(app, [], environment: group.environment)
                #expect(before.stdout.hasPrefix("nil "), "\(before)")
                try host(
                    [
                        "enable", "--extension", executable, "--bundle-identifier", "com.acme.Contacts.Provider",
                        "--marketing-version", "3.1", "--build-number", "7", "--app-display-name", "Acme Contacts",
                        "--app-executable", app,
                    ], in: group)
                let after = try ProcessRunner.run(app, [], environment: group.environment)
                #expect(after.exitCode == 0, "\(after)")
                #expect(after.stdout == "com.acme.Contacts Acme Contacts 3.1 (7)\n", "\(after)")
                try host(["disable"], in: group)
            }
        }
    }

    @Test(
        "enable's identity options: a provider identifier its app's does not prefix is refused naming both; never with --xcode-project"
    )
    func packageOptionsRefused() throws {
        try withTemporaryAppGroup { group in
            try withProviderCopy(named: "OtherProvider") { executable in
                let refused = try host(
                    [
                        "enable", "--extension", executable, "--bundle-identifier", "com.other.Provider",
                        "--app-bundle-identifier", "com.acme.Contacts",
                    ], in: group, expect: 2)
                #expect(
                    refused.stderr.contains("not prefixed with the parent app's bundle identifier"), "\(refused)")
                #expect(
                    refused.stderr.contains("com.other.Provider") && refused.stderr.contains("com.acme.Contacts"),
                    "\(refused)")
                // Nothing was written or enabled.
                #expect(!FileManager.default.fileExists(atPath: executable + ".appex/ContainingApp.plist"))
                #expect(!FileManager.default.fileExists(atPath: group.path + "/run/defaultDomain/provider.log"))
                let invalid = try host(
                    ["enable", "--extension", executable, "--bundle-identifier", "com.acme.my provider"], in: group,
                    expect: 2)
                #expect(invalid.stderr.contains("RFC 1034"), "\(invalid)")
                let version = try host(
                    ["enable", "--extension", executable, "--marketing-version", "1.0 beta"], in: group, expect: 2)
                #expect(version.stderr.contains("one to three integers"), "\(version)")
                let withProject = try host(
                    [
                        "enable", "--xcode-project", "App.xcodeproj", "--bundle-identifier",
                        "com.acme.Contacts.Provider",
                    ],
                    in: group, expect: 2)
                #expect(withProject.stderr.contains("--bundle-identifier and --xcode-project"), "\(withProject)")
            }
        }
    }

    @Test(
        "a provider started by hand for the first time makes its bundle before its code runs; its refusal speaks Apple's words"
    )
    func firstStartByHand() throws {
        try withTemporaryAppGroup { group in
            // A copy in a folder of its own: no bundle yet, as after a fresh build.
            let folder = try XcodeHarness.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let executable = folder + "/Fresh Provider"
            try FileManager.default.copyItem(atPath: BuiltProducts.path("device-fidelity-provider"), toPath: executable)
            let result = try ProcessRunner.run(
                executable, ["--app-group", group.path, "--domain", "com.example.other"], environment: group.environment
            )
            // R3, in Apple's words (issue 40), after the bundle was made (the domain check comes later).
            #expect(result.exitCode == 1, "\(result)")
            #expect(
                result.stderr.contains("error: The domain has not been registered. Only the default domain"),
                "\(result)")
            let plist = try Data(contentsOf: URL(fileURLWithPath: executable + ".appex/Info.plist"))
            let info = try #require(
                try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
            #expect(info["CFBundleIdentifier"] as? String == "com.example.Fresh-Provider")
            #expect(info["CFBundleExecutable"] as? String == "Fresh Provider")
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: executable + ".appex/Fresh Provider")
                    == "../Fresh Provider")
        }
    }

    @Test(
        "a provider built from an Xcode project: Logger under PRODUCT_BUNDLE_IDENTIFIER, versions, Info.plist keys expanded, the app's display name"
    )
    func xcodeProject() throws {
        try XcodeHarness.withProject(XcodeFixtures.identity()) { project in
            try withTemporaryAppGroup { group in
                // The app-side executable takes the project's app target's bundle.
                let app = (project as NSString).deletingLastPathComponent + "/ContactsApp"
                try FileManager.default.copyItem(atPath: BuiltProducts.path("app-identity"), toPath: app)
                try host(
                    ["enable", "--xcode-project", project + "/Identity.xcodeproj", "--app-executable", app], in: group)
                try host(["signal", "--wait"], in: group)
                let log = try providerLog(group)
                let expected =
                    "[\(Names.providerIdentifier):identity] info: Identity 2.5 (42) for \(Names.appDisplayName) at \(Names.serverHost)"
                #expect(log.contains(expected), "\(log)")
                let printed = try ProcessRunner.run(app, [], environment: group.environment)
                #expect(printed.stdout == "\(Names.appIdentifier) \(Names.appDisplayName) 2.5 (42)\n", "\(printed)")
                try host(["disable"], in: group)
            }
        }
    }

    @Test("an extension identifier not prefixed by its app's is refused before anything is built, as Xcode refuses it")
    func prefixRefused() throws {
        try XcodeHarness.withProject(XcodeFixtures.identity(extensionIdentifier: "com.other.provider")) { project in
            try withTemporaryAppGroup { group in
                let result = try host(
                    ["enable", "--xcode-project", project + "/Identity.xcodeproj"], in: group, expect: 1)
                #expect(result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.contains("not prefixed with the parent app's bundle identifier"), "\(result)")
                #expect(result.stderr.contains("com.other.provider"), "\(result)")
                #expect(!result.stderr.contains("building "), "\(result)")
            }
        }
    }
}
