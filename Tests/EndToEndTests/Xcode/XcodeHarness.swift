import Foundation
import TestSupport
import Testing

/// Runs `contacts-host` on fixture Xcode projects: each test gets its own copy of the project (so
/// it can check the tree is byte-for-byte unchanged) and its own App Group; every generated package
/// builds in one shared scratch path, so the simulator's modules are compiled once for all tests
/// (the host serializes builds on that path with a lock).
enum XcodeHarness {
    /// The scratch path every fixture build shares, beside the test products (kept between runs).
    static var sharedScratch: String {
        ((BuiltProducts.directory + "/../../xcode-fixture-scratch") as NSString).standardizingPath
    }

    /// The environment for `contacts-host` in `group`, with the shared scratch path.
    static func environment(_ group: TemporaryAppGroup) -> [String: String] {
        var environment = group.environment
        environment["CONTACTS_HOST_XCODE_SCRATCH_PATH"] = sharedScratch
        return environment
    }

    /// Runs `contacts-host arguments` in `group` and requires exit `code`.
    @discardableResult
    static func host(
        _ arguments: [String], in group: TemporaryAppGroup, expect code: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try HostRunner.process.run(arguments, environment: environment(group))
        #expect(
            result.exitCode == code, "contacts-host \(arguments.joined(separator: " ")) → \(result)",
            sourceLocation: sourceLocation)
        return result
    }

    /// A fresh folder for one test's project copy; removed by `remove(_:)`.
    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "xcode-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `body` with a copy of the folder `source` (a fixture project, changed by `prepare`),
    /// checking afterwards that no command changed, added or removed a file in it.
    static func withCopy<T>(
        of source: String, preparing prepare: (String) throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (String) throws -> T
    ) throws -> T {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/" + (source as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        try prepare(copy)
        let before = try XcodeFixtures.snapshot(copy)
        let result = try body(copy)
        #expect(try XcodeFixtures.snapshot(copy) == before, "the project tree changed", sourceLocation: sourceLocation)
        return result
    }

    /// Runs `body` with `fixture` written into a fresh folder (the project folder's path), checking
    /// afterwards that the tree is unchanged.
    static func withProject<T>(
        _ fixture: XcodeFixture, sourceLocation: SourceLocation = #_sourceLocation, _ body: (String) throws -> T
    ) throws -> T {
        var fixture = fixture
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let project = folder + "/My Projects: Äpps"
        try fixture.write(to: project)
        let before = try XcodeFixtures.snapshot(project)
        let result = try body(project)
        #expect(
            try XcodeFixtures.snapshot(project) == before, "the project tree changed", sourceLocation: sourceLocation)
        return result
    }

    /// The seed app's `ContactItems.json` with `count` people, written into the App Group.
    static func writeSeedItems(_ count: Int, in group: TemporaryAppGroup) throws {
        let items = (0..<count).map { index in
            [
                "identifier": "person-\(index)", "firstName": "Given\(index)", "lastName": "Family\(index)",
                "phoneNumber": "+1 555 000 \(index)",
            ]
        }
        try JSONSerialization.data(withJSONObject: items).write(
            to: URL(fileURLWithPath: group.path + "/ContactItems.json"))
    }
}
