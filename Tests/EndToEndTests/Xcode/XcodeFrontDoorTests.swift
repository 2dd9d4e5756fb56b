import Foundation
import TestSupport
import Testing

/// The front door for an Xcode project: the project's folder is enough, the debugger command printed
/// works when pasted, and an extension without the App Group entitlement is explained, not silent.
@Suite("End to end: enabling, debugging and diagnosing an Xcode project's extension")
struct XcodeFrontDoorTests {
    @Test(
        "--xcode-project DIR takes the only .xcodeproj in DIR (a folder with none or several is refused, naming them); the build shows progress; enable and status say what was built from where"
    )
    func projectFolder() throws {
        try withTemporaryAppGroup { group in
            let folder = try XcodeHarness.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let none = try XcodeHarness.host(["enable", "--xcode-project", folder], in: group, expect: 1)
            #expect(none.stderrLines.count == 1 && none.stderr.contains("no .xcodeproj in this folder"), "\(none)")
            for name in ["B.xcodeproj", "A.xcodeproj"] {
                try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            }
            let several = try XcodeHarness.host(["enable", "--xcode-project", folder], in: group, expect: 1)
            #expect(several.stderrLines.count == 1, "\(several)")
            #expect(several.stderr.contains("2 projects in this folder (A.xcodeproj, B.xcodeproj)"), "\(several)")
        }
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                // Progress lines forced on (a terminal gets them by default): the build says how far it is.
                var environment = XcodeHarness.environment(group)
                environment["CONTACTS_HOST_PROGRESS"] = "1"
                let enabled = try HostRunner.process.run(
                    ["enable", "--xcode-project", project + "/"], environment: environment)
                #expect(enabled.exitCode == 0, "\(enabled)")
                #expect(enabled.stdout.contains("/bin/Provider "), "\(enabled)")
                #expect(
                    enabled.stderrLines.contains { $0.hasPrefix("building Provider: ") && $0.hasSuffix(" s)") },
                    "a build of more than a second shows its progress: \(enabled)")
                #expect(
                    enabled.stdout.contains("built from: \(project)/ContactProviderDemo.xcodeproj (target Provider)"),
                    "\(enabled)")
                let status = try XcodeHarness.host(["status"], in: group)
                #expect(status.stdout.contains("built from: \(project)/ContactProviderDemo.xcodeproj"), "\(status)")
                #expect(status.stdout.contains("debug: gdb --args "), "\(status)")
            }
        }
    }

    /// The line of the seed demo's enumerator that delivers the content page (where a developer would break).
    static func didEnumerateLine(in project: String) throws -> Int {
        let lines = try String(
            contentsOfFile: project + "/Provider/ProviderRootContainerEnumerator.swift", encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains("observer.didEnumerate(") }) + 1
    }

    @Test("the debugger command enable prints, pasted into a shell, runs the provider that serves the next signal")
    func pastedDebuggerCommand() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                let enabled = try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/ContactProviderDemo.xcodeproj"], in: group)
                let line = try #require(
                    enabled.stdout.split(separator: "\n").first(where: { $0.hasPrefix("debug: ") }), "\(enabled)")
                let command = try #require(
                    line.dropFirst("debug: ".count).components(separatedBy: ", then 'run'").first, "\(line)")
                #expect(command.hasPrefix("gdb --args ") && command.hasSuffix(" --app-group \(group.path)"), "\(line)")
                try XcodeHarness.writeSeedItems(2, in: group)
                // `exec`: the shell becomes gdb, so ending the session ends the debugger itself.
                let session = try DebuggerSession(
                    .gdb, pastedCommand: "exec " + command, environment: XcodeHarness.environment(group))
                defer { session.end(inferior: group.providerPID()) }
                let hit = session.setBreakpoint(
                    file: "ProviderRootContainerEnumerator.swift", line: try Self.didEnumerateLine(in: project))
                session.send("run")
                try #require(session.next(containing: "serving domain") != nil, "\(session.transcript)")
                let sync = BackgroundCommand {
                    try HostRunner.process.run(
                        ["signal", "--wait", "--json"], environment: XcodeHarness.environment(group))
                }
                try #require(session.next(containing: hit) != nil, "\(session.transcript)")
                session.send("continue")
                let finished = try #require(try sync.wait(seconds: 120), "\(session.transcript)")
                #expect(finished.exitCode == 0, "\(finished)")
                #expect(try jsonObject(finished)["systemCount"] as? Int == 2, "\(finished)")
            }
        }
    }

    @Test(
        "an extension without an App Group entitlement: enable warns why its syncs will be empty, signal --trace shows the provider's own line"
    )
    func missingAppGroupEntitlement() throws {
        let noGroup: (String) throws -> Void = { project in
            try XcodeFixture.entitlements(appGroups: []).write(
                toFile: project + "/Provider/Provider.entitlements", atomically: true, encoding: .utf8)
        }
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo, preparing: noGroup) { project in
            try withTemporaryAppGroup { group in
                let enabled = try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/ContactProviderDemo.xcodeproj"], in: group)
                let warnings = enabled.stderrLines.filter {
                    $0.hasPrefix("warning: Provider has no App Group entitlement")
                }
                #expect(warnings.count == 1, "\(enabled)")
                #expect(warnings.first?.contains("syncs deliver 0 items") == true, "\(enabled)")
                try XcodeHarness.writeSeedItems(2, in: group)
                let traced = try XcodeHarness.host(["signal", "--trace"], in: group)
                #expect(traced.stdout.contains("didEnumerate(0 items)"), "\(traced)")
                #expect(
                    traced.stderr.contains(
                        "provider: containerURL(forSecurityApplicationGroupIdentifier: \"group.nl.wesleydegroot.contactproviderdemo\") is nil"
                    ), "\(traced)")
                try XcodeHarness.host(["invalidate"], in: group)
            }
        }
    }
}
