import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 24: never stale code. After a rebuild, or after enabling another extension, the very next
/// signal is served by the new executable, and `status` says which build serves.
@Suite("End to end: the registered build serves the next signal")
struct StaleBuildTests {
    /// Copies `demo-provider` to `path` as a new file (new inode), as a linker writing a build does.
    private static func installBuild(at path: String) throws {
        let temporary = path + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.copyItem(atPath: BuiltProducts.path("demo-provider"), toPath: temporary)
        #expect(rename(temporary, path) == 0)
    }

    private static func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    @Test("A rebuilt executable (new inode) serves the next signal; status said the old build was stale")
    func rebuiltExecutableServesNextSignal() throws {
        try withTemporaryAppGroup { group in
            let executable = group.path + "/MyProvider"
            try Self.installBuild(at: executable)
            try host(["enable", "--extension", executable], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try host(["signal", "--wait"], in: group)
            let first = try #require(group.providerPID())
            #expect(try host(["status"], in: group).stdout.contains("current build (inode \(Self.inode(executable))"))

            try Self.installBuild(at: executable)  // `swift build` after an edit
            #expect(try host(["status"], in: group).stdout.contains("an older build"))
            try host(["add", "--given-name", "Grace", "--id", "grace"], in: group)
            let result = try host(["signal", "--wait", "--json"], in: group)
            #expect(result.stderr.contains("runs an older build"), "\(result)")
            let second = try #require(group.providerPID())
            #expect(second != first, "the old build answered the signal")
            var running = stat()
            #expect(stat("/proc/\(second)/exe", &running) == 0)
            #expect(UInt64(running.st_ino) == Self.inode(executable))
            // Same extension rebuilt: the system keeps what it had and syncs only the change.
            let report = try jsonObject(result)
            #expect(report["enumeration"] as? String == "changes")
            #expect(report["systemCount"] as? Int == 2)
        }
    }

    @Test(
        "Enabling another extension invalidates the running provider; the new one starts from an empty store and no anchor"
    )
    func anotherExtensionStartsFresh() throws {
        try withTemporaryAppGroup { group in
            let firstApp = group.path + "/FirstProvider"
            let secondApp = group.path + "/SecondProvider"
            try Self.installBuild(at: firstApp)
            try Self.installBuild(at: secondApp)
            try host(["enable", "--extension", firstApp], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try host(["signal", "--wait"], in: group)
            let first = try #require(group.providerPID())

            let enabled = try host(["enable", "--extension", secondApp], in: group)
            #expect(enabled.stderr.contains("the system store starts empty, with no sync anchor"), "\(enabled)")
            #expect(ProcessExit.waitUntilGone(first), "the previous extension's provider still runs")
            let status = try jsonObject(try host(["status", "--json"], in: group))
            #expect(status["systemCount"] as? Int == 0)
            #expect(status["anchor"] == nil)

            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["enumeration"] as? String == "content")
            #expect(report["systemCount"] as? Int == 1)
            let second = try #require(group.providerPID())
            var running = stat()
            #expect(stat("/proc/\(second)/exe", &running) == 0)
            #expect(UInt64(running.st_ino) == Self.inode(secondApp))
        }
    }

    @Test(
        "A provider started through a script (exec real-provider) is current on every signal, and stale once the real one is rebuilt"
    )
    func scriptLaunchedProvider() throws {
        try withTemporaryAppGroup { group in
            let executable = group.path + "/bin/MyProvider"
            try FileManager.default.createDirectory(atPath: group.path + "/bin", withIntermediateDirectories: true)
            try Self.installBuild(at: executable)
            let script = group.path + "/run-provider.sh"
            try Data("#!/bin/sh\n# environment set-up, as real launch scripts do\nexec '\(executable)' \"$@\"\n".utf8)
                .write(to: URL(fileURLWithPath: script))
            #expect(chmod(script, 0o700) == 0)
            try host(["enable", "--extension", script], in: group)
            try host(["add", "--given-name", "Ada", "--id", "ada"], in: group)
            try host(["signal", "--wait"], in: group)
            let first = try #require(group.providerPID())

            for name in ["Grace", "Alan"] {
                try host(["add", "--given-name", name, "--id", name.lowercased()], in: group)
                let result = try host(["signal", "--wait"], in: group)
                #expect(
                    !result.stderr.contains("older build"), "a script-launched provider was called stale: \(result)")
                #expect(group.providerPID() == first, "the warm provider was relaunched")
            }
            #expect(try host(["status"], in: group).stdout.contains("current build"))

            try Self.installBuild(at: executable)  // the real provider rebuilt
            let result = try host(["signal", "--wait"], in: group)
            #expect(result.stderr.contains("runs an older build"), "\(result)")
            let second = try #require(group.providerPID())
            #expect(second != first, "the old build answered the signal")
        }
    }
}
