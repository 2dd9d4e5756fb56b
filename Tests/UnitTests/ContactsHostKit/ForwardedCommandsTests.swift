import ContactProviderSystem
import ContactsHostConformance
import Foundation
import Glibc
import TestSupport
import Testing

@testable import ContactsHostKit

@Suite("contacts-host hands conformance and demo carddav to contacts-host-conformance")
struct ForwardedCommandsTests {
    @Test("allCommands is commands, in the same order, with each forwarded one's code and summary")
    func allCommandsImplementEveryForwardedOne() {
        let declared = HostTool.commands
        let implemented = HostTool.allCommands
        #expect(declared.map(\.name) == implemented.map(\.name))
        #expect(declared.map(\.summary) == implemented.map(\.summary))
        #expect(implemented.allSatisfy { $0.forwardedTo == nil })
        let forwarded = declared.filter { $0.forwardedTo != nil }.map { $0.name.joined(separator: " ") }
        #expect(forwarded == ["demo carddav", "conformance"])
        #expect(declared.allSatisfy { $0.forwardedTo == nil || $0.forwardedTo == ForwardedCommands.executable })
    }

    @Test("the forwarded commands said to take --json are exactly those whose declaration has it")
    func forwardedJSONAgrees() {
        let forwarded = Set(HostTool.commands.filter { $0.forwardedTo != nil }.map(\.name))
        let withJSON = HostTool.allCommands.filter { forwarded.contains($0.name) }
            .filter { $0.options.contains { $0.name == "--json" } }.map(\.name)
        #expect(withJSON == ForwardedCommands.namesTakingJSON)
        // So contacts-host and contacts-host-conformance name the same commands when they refuse --json.
        #expect(JSONOutput.commands(withJSON: HostTool.commands) == JSONOutput.commands(withJSON: HostTool.allCommands))
    }

    @Test("the tool's help is the same from either list: names and summaries only")
    func toolHelpAgrees() {
        #expect(HelpFormatter.toolHelp(HostTool.commands) == HelpFormatter.toolHelp(HostTool.allCommands))
    }

    @Test("in process, a forwarded command says where it runs instead of replacing the process")
    func inProcessForwardingRefuses() async {
        let output = CapturedOutput()
        let code = await HostTool.main(arguments: ["conformance", "--list-rules"], output: output)
        #expect(code == 1)
        #expect(output.stderr.contains("runs in contacts-host-conformance"), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test("a build tree is <root>/.build/<triple>/<debug|release>/ under a Package.swift; elsewhere none")
    func buildTree() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data().write(to: URL(fileURLWithPath: root + "/Package.swift"))
        let inTree = PackageBuild.tree(of: root + "/.build/x86_64-unknown-linux-gnu/release/contacts-host")
        #expect(inTree?.root == root)
        #expect(inTree?.configuration == "release")
        #expect(PackageBuild.tree(of: root + "/.build/x86_64-unknown-linux-gnu/other/contacts-host") == nil)
        #expect(PackageBuild.tree(of: "/usr/local/bin/contacts-host") == nil)
        #expect(PackageBuild.tree(of: root + "/elsewhere/.build/debug/contacts-host") == nil)
    }

    @Test("stale when missing, or older than Package.swift or any file under Sources/")
    func staleness() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = root + "/Sources/Kit/Rule.swift"
        try FileManager.default.createDirectory(atPath: root + "/Sources/Kit", withIntermediateDirectories: true)
        for path in [root + "/Package.swift", source] { try Data().write(to: URL(fileURLWithPath: path)) }
        let built = root + "/contacts-host-conformance"
        #expect(ForwardedBuild.isStale(built, root: root))
        try Data().write(to: URL(fileURLWithPath: built))
        try setModified(built, secondsAgo: 0)
        for path in [root + "/Package.swift", source, root + "/Sources", root + "/Sources/Kit"] {
            try setModified(path, secondsAgo: 60)
        }
        #expect(!ForwardedBuild.isStale(built, root: root))
        try setModified(source, secondsAgo: -60)
        #expect(ForwardedBuild.isStale(built, root: root))
        try setModified(source, secondsAgo: 60)
        try setModified(root + "/Package.swift", secondsAgo: -60)
        #expect(ForwardedBuild.isStale(built, root: root))
    }

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "forwarded-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func setModified(_ path: String, secondsAgo: Double) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: path)
    }
}

@Suite("contacts-host does not wait for the build lock of the SwiftPM that runs it")
struct ForwardedBuildLockTests {
    @Test("/proc/PID/stat: the name ends at the last parenthesis, the parent pid follows the state")
    func parseStat() {
        let parsed = ForwardedBuild.parseStat("8469 (swift-test) S 8467 8467 1 0 -1 4194560 12 0")
        #expect(parsed?.name == "swift-test")
        #expect(parsed?.parent == 8467)
        let odd = ForwardedBuild.parseStat("12 (a) b (c)) R 7 12 12")
        #expect(odd?.name == "a) b (c)")
        #expect(odd?.parent == 7)
        #expect(ForwardedBuild.parseStat("garbage") == nil)
    }

    @Test("found through a chain of processes: a shell named swift-build, its child sleep")
    func ancestorThroughChain() throws {
        let directory = NSTemporaryDirectory() + "swiftpm-ancestor-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shell = directory + "/swift-build"
        let dash = URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: dash, toPath: shell)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        // `; true` keeps the shell alive as sleep's parent (a lone command would be exec'd).
        process.arguments = ["-c", "sleep 30; true"]
        try ProcessRunner.runUnblocked(process)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let children = "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children"
        // The child appears when the shell has forked it, and is `sleep` once it has exec'd (until
        // then it is a copy named swift-build): no event says so, hence the poll.
        var child: Int32?
        Poll.until(seconds: 10, every: 0.01) {
            child = (try? String(contentsOfFile: children, encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard let child, let name = try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8) else {
                return false
            }
            return name == "sleep\n"
        }
        let sleeper = try #require(child, "the shell started no child")
        defer { kill(sleeper, SIGKILL) }  // before the shell's terminate: it waits for its child
        let holder = try #require(ForwardedBuild.swiftPMAncestor(from: sleeper))
        #expect(holder.name == "swift-build")
        #expect(holder.pid == process.processIdentifier)
        #expect(ForwardedBuild.swiftPMAncestor(from: 1) == nil)
    }

    @Test("the SwiftPM using a package's .build is the live swift-… process whose pid .build/.lock holds")
    func buildLockHolder() throws {
        let root = NSTemporaryDirectory() + "swiftpm-lock-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/.build", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(ForwardedBuild.buildLockHolder(root: root) == nil, "no lock file")
        // A process named swift-test (a copy of sh) stands for SwiftPM running the tests.
        let shell = root + "/swift-test"
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path, toPath: shell)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-c", "read line"]  // waits on its stdin until the test closes it
        let input = Pipe()
        process.standardInput = input
        try ProcessRunner.runUnblocked(process)
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        try "\(process.processIdentifier)".write(toFile: root + "/.build/.lock", atomically: true, encoding: .utf8)
        let holder = try #require(ForwardedBuild.buildLockHolder(root: root))
        #expect(holder.name == "swift-test")
        #expect(holder.pid == process.processIdentifier)
        // The pid of a process that is not SwiftPM (this one), or of none, is no holder.
        try "\(getpid())".write(toFile: root + "/.build/.lock", atomically: true, encoding: .utf8)
        #expect(ForwardedBuild.buildLockHolder(root: root) == nil)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try "\(process.processIdentifier)".write(toFile: root + "/.build/.lock", atomically: true, encoding: .utf8)
        #expect(ForwardedBuild.buildLockHolder(root: root) == nil, "the process has ended")
    }
}
