import Foundation
import TestSupport
import Testing

/// `contacts-host enable|conformance|package --xcode-project`: from an Xcode project to a running,
/// checked extension in one command, with none of the user's files touched.
@Suite("End to end: Xcode projects built, enabled, synced and checked")
struct XcodeProjectCLITests {
    typealias Names = XcodeFixtures.TwoProviders

    @Test(
        "the published ContactProviderDemo app: one command builds and enables its extension, signal syncs, the kit runs"
    )
    func publishedProject() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                let xcodeproj = project + "/ContactProviderDemo.xcodeproj"
                let enabled = try XcodeHarness.host(["enable", "--xcode-project", xcodeproj], in: group)
                #expect(enabled.stdout.contains("App Group group.nl.wesleydegroot.contactproviderdemo"), "\(enabled)")
                #expect(enabled.stdout.contains("/bin/Provider "), "\(enabled)")
                try XcodeHarness.writeSeedItems(3, in: group)
                let sync = try jsonObject(try XcodeHarness.host(["signal", "--wait", "--json"], in: group))
                #expect(sync["enumeration"] as? String == "content")
                #expect(sync["systemCount"] as? Int == 3)
                let system = try jsonArray(try XcodeHarness.host(["system", "list", "--json"], in: group))
                #expect(Set(system.compactMap { $0["givenName"] as? String }) == ["Given0", "Given1", "Given2"])
                try XcodeHarness.host(["invalidate"], in: group)

                // The kit, through the same command: this naive provider re-sends everything and never
                // deletes, so the kit runs to its verdict and fails it (exit 1) on a deletion rule.
                let kit = try XcodeHarness.host(
                    [
                        "conformance", "--xcode-project", xcodeproj, "--backend", "seed-json", "--operations", "30",
                        "--json",
                    ],
                    in: group, expect: 1)
                let outcomes = try ConformanceHarness.outcomes(kit)
                #expect(outcomes.count > 10, "\(kit)")
                #expect(outcomes["C1"]?.status == "pass", "\(outcomes["C1"].map { "\($0)" } ?? "no C1")")
                #expect(!ConformanceHarness.rules(outcomes, "fail").isEmpty)
            }
        }
    }

    @Test("the entitlements' App Group is the one containerURL answers to: another group's identifier gets nil")
    func entitledGroupOnly() throws {
        // This copy's entitlements name another group (the copy is the test's own, not the fixture).
        let otherGroup: (String) throws -> Void = { project in
            try XcodeFixture.entitlements(appGroups: ["group.example.other"]).write(
                toFile: project + "/Provider/Provider.entitlements", atomically: true, encoding: .utf8)
        }
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo, preparing: otherGroup) { project in
            try withTemporaryAppGroup { group in
                let enabled = try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/ContactProviderDemo.xcodeproj"], in: group)
                #expect(enabled.stdout.contains("App Group group.example.other"), "\(enabled)")
                try XcodeHarness.writeSeedItems(2, in: group)
                let sync = try jsonObject(try XcodeHarness.host(["signal", "--wait", "--json"], in: group))
                #expect(sync["systemCount"] as? Int == 0, "the provider must not find the app's file: \(sync)")
                try XcodeHarness.host(["invalidate"], in: group)
            }
        }
    }

    @Test(
        "two extension targets (classic groups in Swift 5, a synchronized folder in Swift 6 with MemberImportVisibility) each enable, sync and pass the kit",
        arguments: [Names.classic, Names.synced])
    func twoTargets(target: String) throws {
        try XcodeHarness.withProject(try XcodeFixtures.twoProviders()) { project in
            try withTemporaryAppGroup { group in
                let xcodeproj = project + "/Two Providers.xcodeproj"
                let enabled = try XcodeHarness.host(
                    ["enable", "--xcode-project", xcodeproj, "--target", target], in: group)
                #expect(enabled.stdout.contains("App Group \(XcodeFixtures.templateGroup)"), "\(enabled)")
                let warnings = enabled.stderrLines.filter { $0.hasPrefix("warning:") }
                let leftOut = target == Names.classic ? "Legacy.m" : "Preview.swift"
                #expect(warnings.count == 1 && warnings[0].contains(leftOut), "\(enabled)")
                try XcodeHarness.writeSeedItems(4, in: group)
                let sync = try jsonObject(try XcodeHarness.host(["signal", "--wait", "--json"], in: group))
                #expect(sync["systemCount"] as? Int == 4, "\(sync)")
                try XcodeHarness.host(["invalidate"], in: group)
                let kit = try XcodeHarness.host(
                    [
                        "conformance", "--xcode-project", xcodeproj, "--target", target, "--backend", "seed-json",
                        "--operations", "40", "--json",
                    ], in: group)
                let outcomes = try ConformanceHarness.outcomes(kit)
                #expect(outcomes.count > 10)
                #expect(ConformanceHarness.rules(outcomes, "fail").isEmpty, "\(kit)")
            }
        }
    }

    @Test("two Contact Provider targets and no --target: refused in one line that lists them; nothing is built")
    func ambiguousTarget() throws {
        try XcodeHarness.withProject(try XcodeFixtures.twoProviders()) { project in
            try withTemporaryAppGroup { group in
                let result = try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/Two Providers.xcodeproj"], in: group, expect: 1)
                #expect(result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.contains("(\(Names.classic), \(Names.synced)); choose one with --target NAME"))
                #expect(!FileManager.default.fileExists(atPath: group.path + "/Library/Caches/contacts-host"))
            }
        }
    }

    @Test(
        "package --output: a package of links that swift build builds, regenerated as the Xcode target gains and loses files"
    )
    func packageOutput() throws {
        try XcodeHarness.withProject(try XcodeFixtures.twoProviders()) { project in
            try withTemporaryAppGroup { group in
                let output = try XcodeHarness.temporaryFolder() + "/Synced Package"
                defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
                let arguments = [
                    "package", "--xcode-project", project + "/Two Providers.xcodeproj", "--target", Names.synced,
                    "--output", output,
                ]
                let written = try XcodeHarness.host(arguments, in: group)
                #expect(written.stdout.contains("4 Swift files linked"), "\(written)")
                let sources = output + "/Sources/Synced_Provider__"
                let link = sources + "/\(Names.syncedFolder)/Provider.swift"
                // Relative links and a relative simulator path: a package the user can commit.
                let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link)
                #expect(!destination.hasPrefix("/"), "\(destination)")
                #expect(
                    (((link as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
                        as NSString).standardizingPath == project + "/\(Names.syncedFolder)/Provider.swift")
                let manifestText = try String(contentsOfFile: output + "/Package.swift", encoding: .utf8)
                #expect(!manifestText.contains("\"/"), "no absolute path of this machine: \(manifestText)")
                #expect(!manifestText.contains(project), "no absolute path of this machine: \(manifestText)")
                let build = try ProcessRunner.run(
                    "/usr/bin/env",
                    ["swift", "build", "--package-path", output, "--scratch-path", XcodeHarness.sharedScratch])
                #expect(build.exitCode == 0, "\(build)")

                // A file added to the synchronized folder (and one removed) follows at the next run.
                let added = project + "/\(Names.syncedFolder)/Added.swift"
                try "let addedFromXcode = 1\n".write(toFile: added, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(atPath: added) }
                try FileManager.default.createDirectory(
                    atPath: output + "/Tests/Synced_Provider__Tests", withIntermediateDirectories: true)
                #expect(try XcodeHarness.host(arguments, in: group).stdout.contains("5 Swift files linked"))
                #expect(FileManager.default.fileExists(atPath: sources + "/\(Names.syncedFolder)/Added.swift"))
                let manifest = try String(contentsOfFile: output + "/Package.swift", encoding: .utf8)
                #expect(manifest.contains(".testTarget("), "the user's Tests folder becomes a test target")
                #expect(manifest.contains("\"ContactProviderConformance\""))
                try FileManager.default.removeItem(atPath: added)
                #expect(try XcodeHarness.host(arguments, in: group).stdout.contains("4 Swift files linked"))
                #expect(!FileManager.default.fileExists(atPath: sources + "/\(Names.syncedFolder)/Added.swift"))
            }
        }
    }

    @Test(
        "refusals in one line, nothing written: an .xcodeproj given as --extension, a malformed pbxproj, both options")
    func refusals() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                let xcodeproj = project + "/ContactProviderDemo.xcodeproj"
                let asExtension = try XcodeHarness.host(["enable", "--extension", xcodeproj], in: group, expect: 1)
                #expect(asExtension.stderrLines.count == 1, "\(asExtension)")
                #expect(asExtension.stderr.contains("use --xcode-project \(xcodeproj)"), "\(asExtension)")
                let both = try XcodeHarness.host(
                    ["conformance", "--extension", "/bin/true", "--xcode-project", xcodeproj], in: group, expect: 2)
                CLIHarness.expectUsageError(both, mentioning: "give one")
            }
        }
        var fixture = try XcodeFixtures.twoProviders()
        let text = fixture.pbxprojText()
        try XcodeHarness.withProject(fixture) { project in
            let pbxproj = project + "/Two Providers.xcodeproj/project.pbxproj"
            // The classic target's first build file (the first PBXBuildFile) points at nothing.
            let reference = try #require(text.firstRange(of: /fileRef = 5EED[0-9A-F]{20}/))
            let broken = text.replacingCharacters(in: reference, with: "fileRef = FEEDFACEFEEDFACEFEEDFACE")
            try withTemporaryAppGroup { group in
                try broken.write(toFile: pbxproj, atomically: true, encoding: .utf8)
                defer { try? text.write(toFile: pbxproj, atomically: true, encoding: .utf8) }
                let output = try XcodeHarness.temporaryFolder() + "/out"
                let result = try XcodeHarness.host(
                    [
                        "package", "--xcode-project", project + "/Two Providers.xcodeproj", "--target", Names.classic,
                        "--output", output,
                    ],
                    in: group, expect: 1)
                #expect(result.stderrLines.count == 1, "\(result)")
                #expect(result.stderr.contains("\(pbxproj): object 5EED"), "\(result)")
                #expect(result.stderr.contains("refers to FEEDFACEFEEDFACEFEEDFACE, which does not exist"), "\(result)")
                #expect(!FileManager.default.fileExists(atPath: output), "nothing half-written")
            }
        }
    }

    @Test(
        "a Swift package that cannot be fetched is refused in one line naming it and the target, at once; nothing is enabled"
    )
    func unreachablePackage() throws {
        var fixture = XcodeFixture(name: "Unreachable")
        fixture.file("P/Info.plist", XcodeFixture.infoPlist(extensionPoint: XcodeFixture.contactProviderPoint))
        fixture.file("P/Provider.swift", "import ContactProvider\n")
        // A repository that does not exist: SwiftPM alone retried it for about 55 minutes.
        let url = "file:///nonexistent-\(UUID().uuidString)/Missing.git"
        let remote = fixture.remotePackage(url, version: "1.0.0", product: "Missing")
        let folder = fixture.synchronizedFolder("P")
        fixture.mainGroupChildren = [folder]
        fixture.target(
            "P", productType: XcodeFixture.extensionKitProduct, synchronizedFolders: [folder],
            settings: [("INFOPLIST_FILE", .string("P/Info.plist"))], packages: [remote.product])
        try XcodeHarness.withProject(fixture) { project in
            try withTemporaryAppGroup { group in
                let result = try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/Unreachable.xcodeproj"], in: group, expect: 1)
                let refusal = result.stderrLines.filter { !$0.hasPrefix("warning:") }
                #expect(refusal.count == 1, "\(result)")
                #expect(result.stderr.contains("the Swift package \(url) of target P cannot be fetched"), "\(result)")
                #expect(result.stderr.contains("git ls-remote"), "git's own reason is named: \(result)")
                #expect(!result.stderr.contains("building P"), "swift build never started: \(result)")
                let status = try jsonObject(try XcodeHarness.host(["status", "--json"], in: group))
                #expect(status["enabled"] as? Bool != true, "\(status)")
            }
        }
    }
}
