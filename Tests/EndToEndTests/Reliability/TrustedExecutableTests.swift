import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, item 5: the system never runs a provider that another user can replace or re-point.
@Suite("Reliability: a provider executable another user could change is refused, at enable and at launch")
struct TrustedExecutableTests {
    /// `demo-provider` copied into a new folder `name` of the App Group's parent-free scratch area.
    private static func install(in group: TemporaryAppGroup, folder name: String) throws -> (
        folder: String, file: String
    ) {
        let folder = group.path + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(chmod(folder, 0o755) == 0)
        let file = folder + "/MyProvider"
        try FileManager.default.copyItem(atPath: BuiltProducts.path("demo-provider"), toPath: file)
        return (folder, file)
    }

    @Test("A folder every user can write: enable refuses it, naming the folder, its mode and the fix")
    func worldWritableFolderAtEnable() throws {
        try withTemporaryAppGroup { group in
            let (folder, file) = try Self.install(in: group, folder: "shared")
            #expect(chmod(folder, 0o777) == 0)
            let result = try HostRunner.process.run(["enable", "--extension", file], in: group)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("\(folder): refused") || result.stderr.contains(folder), "\(result)")
            #expect(result.stderr.contains("writable by every user (mode 777)"), "\(result)")
            #expect(result.stderr.contains("chmod go-w"), "\(result)")
        }
    }

    @Test("Made writable after enable: the next launch refuses to run it")
    func madeWritableAfterEnable() throws {
        try withTemporaryAppGroup { group in
            let (folder, file) = try Self.install(in: group, folder: "bin")
            try HostRunner.process.succeed(["enable", "--extension", file], in: group)
            #expect(chmod(folder, 0o777) == 0)
            let result = try HostRunner.process.run(["signal", "--wait"], in: group)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("writable by every user (mode 777)"), "\(result)")
            #expect(group.providerPID() == nil, "the provider was launched")
            #expect(chmod(folder, 0o755) == 0)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
        }
    }

    @Test("A sticky shared folder (like /tmp) is accepted: nobody else can replace what is ours there")
    func stickyFolderIsAccepted() throws {
        try withTemporaryAppGroup { group in
            let (folder, file) = try Self.install(in: group, folder: "sticky")
            #expect(chmod(folder, 0o1777) == 0)
            try HostRunner.process.succeed(["enable", "--extension", file], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
        }
    }

    @Test("A folder owned by another user (root only: it needs chown): refused, naming the owner")
    func foreignOwnerIsRefused() throws {
        try withTemporaryAppGroup { group in
            let (folder, file) = try Self.install(in: group, folder: "theirs")
            guard chown(folder, 12345, 12345) == 0 else {
                // Only root can give a folder away; CI runs as root, so CI never takes this branch.
                #expect(ProcessInfo.processInfo.environment["CI"] == nil, "CI must run this test as root")
                return
            }
            let result = try HostRunner.process.run(["enable", "--extension", file], in: group)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("belongs to uid 12345"), "\(result)")

            // Ours again, but writable by another group: refused; by our own group: accepted.
            #expect(chown(folder, geteuid(), 12345) == 0 && chmod(folder, 0o775) == 0)
            let groupWritable = try HostRunner.process.run(["enable", "--extension", file], in: group)
            #expect(groupWritable.exitCode == 1, "\(groupWritable)")
            #expect(groupWritable.stderr.contains("writable by its group (mode 775)"), "\(groupWritable)")
            #expect(chown(folder, geteuid(), getegid()) == 0)
            try HostRunner.process.succeed(["enable", "--extension", file], in: group)
        }
    }
}
