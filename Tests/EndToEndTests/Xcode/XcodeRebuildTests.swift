import Foundation
import TestSupport
import Testing

/// Edit → sync with no build command: a provider built from an Xcode project is rebuilt by the
/// command that launches it once a file of the project changed, and the kit's lines name the project.
@Suite("End to end: an Xcode project's edits are built by the next command that launches its provider")
struct XcodeRebuildTests {
    /// The seed demo's file that turns an item into a contact (the app's model, shared with the extension).
    static let modelFile = "ContactProviderDemo/ContactItemDatabase.swift"
    static let givenNameLine = "contact.givenName = item.firstName"

    /// Replaces `Self.givenNameLine` in the project's model file with `line`; returns the original text.
    static func editModel(in project: String, to line: String) throws -> String {
        let path = project + "/" + modelFile
        let original = try String(contentsOfFile: path, encoding: .utf8)
        #expect(original.contains(givenNameLine), "the fixture's model file changed: update this test")
        try original.replacingOccurrences(of: givenNameLine, with: line).write(
            toFile: path, atomically: true, encoding: .utf8)
        return original
    }

    @Test("an edit to a Swift file is served by the very next signal, which says in one line that it rebuilds")
    func editServedByNextSignal() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/ContactProviderDemo.xcodeproj"], in: group)
                try XcodeHarness.writeSeedItems(1, in: group)
                let first = try XcodeHarness.host(["signal", "--wait"], in: group)
                #expect(!first.stderr.contains("rebuilding"), "nothing changed yet: \(first)")

                let original = try Self.editModel(in: project, to: "contact.givenName = \"Edited \" + item.firstName")
                defer { try? original.write(toFile: project + "/" + Self.modelFile, atomically: true, encoding: .utf8) }
                let edited = try XcodeHarness.host(["signal", "--wait"], in: group)
                let announcements = edited.stderrLines.filter { $0.contains("rebuilding") }
                #expect(announcements.count == 1, "\(edited)")
                #expect(
                    announcements.first?.hasPrefix(
                        "\(Self.modelFile) changed since the last build: rebuilding Provider")
                        == true, "\(edited)")
                let system = try jsonArray(try XcodeHarness.host(["system", "list", "--json"], in: group))
                #expect(system.compactMap { $0["givenName"] as? String } == ["Edited Given0"], "\(system)")

                // Built once: the next signal runs the same build without a word about building.
                let again = try XcodeHarness.host(["signal", "--wait"], in: group)
                #expect(!again.stderr.contains("build"), "\(again)")
                try XcodeHarness.host(["invalidate"], in: group)
            }
        }
    }

    @Test("a compile error after an edit names the project's file (not the generated link), and signal fails")
    func compileErrorNamesProjectFile() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                try XcodeHarness.host(
                    ["enable", "--xcode-project", project + "/ContactProviderDemo.xcodeproj"], in: group)
                let original = try Self.editModel(in: project, to: "contact.givenName = undefinedName")
                defer { try? original.write(toFile: project + "/" + Self.modelFile, atomically: true, encoding: .utf8) }
                let failed = try XcodeHarness.host(["signal", "--wait"], in: group, expect: 1)
                let error = try #require(failed.stderrLines.last, "\(failed)")
                #expect(
                    error.contains("building Provider failed: \(Self.modelFile):")
                        && error.contains(": error: cannot find 'undefinedName' in scope"), "\(failed)")
                #expect(!failed.stderr.contains("/Sources/Provider/"), "the generated link is not named: \(failed)")
            }
        }
    }

    @Test(
        "the kit on an Xcode project: reproduce lines and the JUnit suite name the project and target, the summary comes first and last, and a pasted line builds the project as it is then"
    )
    func reproduceLineRebuilds() throws {
        try XcodeHarness.withCopy(of: XcodeFixtures.contactProviderDemo) { project in
            try withTemporaryAppGroup { group in
                let xcodeproj = project + "/ContactProviderDemo.xcodeproj"
                let junit = group.path + "/conformance.xml"
                // The naive seed demo never deletes: a deletion rule fails and prints its reproduce line.
                let kit = try XcodeHarness.host(
                    [
                        "conformance", "--xcode-project", xcodeproj, "--backend", "seed-json", "--operations", "30",
                        "--junit", junit,
                    ], in: group, expect: 1)
                let lines = kit.stdout.split(separator: "\n").map(String.init)
                let summary = try #require(lines.last, "\(kit)")
                #expect(summary.contains(" passed, ") && summary.contains(" failed, "), "\(kit)")
                #expect(lines.dropFirst().first == summary, "the summary is printed first as well: \(kit)")
                let named = "--xcode-project \(xcodeproj) --target Provider"
                #expect(lines.first?.contains(named) == true, "\(kit)")
                let reproduce = try #require(
                    lines.first(where: { $0.hasPrefix("  reproduce: ") })?.dropFirst("  reproduce: ".count), "\(kit)")
                #expect(reproduce.contains(" conformance \(named) "), "\(reproduce)")
                #expect(!reproduce.contains("/bin/Provider"), "not the cache's build: \(reproduce)")
                let report = try String(contentsOfFile: junit, encoding: .utf8)
                #expect(
                    report.contains("<testsuite name=\"contact provider conformance: --xcode-project "), "\(report)")

                // After an edit, the pasted line builds the project as it is now: here it no longer compiles.
                let original = try Self.editModel(in: project, to: "contact.givenName = undefinedName")
                defer { try? original.write(toFile: project + "/" + Self.modelFile, atomically: true, encoding: .utf8) }
                let pasted = try ProcessRunner.run(
                    "/bin/sh", ["-c", String(reproduce)], environment: XcodeHarness.environment(group))
                #expect(pasted.exitCode == 1, "\(pasted)")
                #expect(pasted.stderr.contains("\(Self.modelFile):"), "\(pasted)")
                #expect(pasted.stderr.contains("cannot find 'undefinedName' in scope"), "\(pasted)")
            }
        }
    }
}
