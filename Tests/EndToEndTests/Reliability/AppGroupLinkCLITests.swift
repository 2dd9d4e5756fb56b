import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 3: a link or directory planted in a shared sticky directory must not decide where a
/// user's address book goes, and an App Group open to other users is tightened to 0700.
@Suite("Reliability: planted App Group paths")
struct AppGroupLinkCLITests {
    /// Another user's uid for planted files (the tests chown as root).
    static let otherUID: uid_t = 4242

    /// A fresh sticky, world-writable directory (a private stand-in for /tmp), and a cleanup.
    private static func sharedStickyDirectory() throws -> String {
        let shared = TemporaryAppGroup().path
        #expect(chmod(shared, 0o1777) == 0)
        return shared
    }

    private static func runHost(_ arguments: [String], appGroup: String) throws -> ProcessResult {
        var environment = CLIHarness.environmentWithoutAppGroup
        environment[AppGroup.environmentVariable] = appGroup
        return try HostRunner.process.run(arguments, environment: environment)
    }

    @Test("an App Group that is a symbolic link is refused by writes and reads; nothing reaches the link's target")
    func symlinkedAppGroup() throws {
        try withTemporaryAppGroup { target in
            let shared = try Self.sharedStickyDirectory()
            defer { try? FileManager.default.removeItem(atPath: shared) }
            let link = shared + "/AppGroup"
            #expect(symlink(target.path, link) == 0)
            for arguments in [["add", "--given-name", "Ada"], ["list"], ["enable"]] {
                let result = try Self.runHost(arguments, appGroup: link)
                CLIHarness.expectFailure(result, mentioning: [link, "symbolic link"])
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        }
    }

    @Test("a directory owned by another user in a sticky directory is refused, as is a link planted there")
    func foreignComponentInStickyDirectory() throws {
        guard geteuid() == 0 || ProcessInfo.processInfo.environment["CI"] != nil else {
            print("skipped: planting another user's files needs root (chown); CI runs it as root")
            return
        }
        let shared = try Self.sharedStickyDirectory()
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let planted = shared + "/team"
        #expect(mkdir(planted, 0o777) == 0)
        #expect(chmod(planted, 0o777) == 0)
        #expect(chown(planted, Self.otherUID, Self.otherUID) == 0)
        let result = try Self.runHost(["add", "--given-name", "Ada"], appGroup: planted + "/AppGroup")
        CLIHarness.expectFailure(result, mentioning: [planted, "owned by uid \(Self.otherUID)", "sticky"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty)

        // A link planted by another user, pointing at a directory of ours, is refused too.
        let ours = shared + "/ours"
        #expect(mkdir(ours, 0o700) == 0)
        let link = shared + "/planted-link"
        #expect(symlink(ours, link) == 0)
        #expect(lchown(link, Self.otherUID, Self.otherUID) == 0)
        let viaLink = try Self.runHost(["add", "--given-name", "Ada"], appGroup: link + "/AppGroup")
        CLIHarness.expectFailure(viaLink, mentioning: [link, "owned by uid \(Self.otherUID)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: ours).isEmpty)
    }

    @Test("an existing App Group readable by others is tightened to 0700")
    func permissionsTightened() throws {
        try withTemporaryAppGroup { group in
            #expect(chmod(group.path, 0o755) == 0)
            let listed = try Self.runHost(["list"], appGroup: group.path)
            #expect(listed.exitCode == 0, "\(listed)")
            #expect(CLIHarness.info(group.path).map { $0.st_mode & 0o777 } == 0o700)
        }
    }
}
