import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31, item 1: `doctor --repair` is crash-atomic. Interrupted before any one of its system calls
/// (strace's fault injection: a SIGKILL or SIGINT on entry, or one write failing with
/// ENOSPC, as on a full disk), the store reads as it was (damaged, so `list` refuses it) or as
/// repaired, never as an empty or shorter store; and a repair run afterwards restores every contact.
@Suite("Reliability: an interrupted doctor --repair loses nothing (kill, SIGINT, full disk at every step)")
struct InterruptedRepairCLITests {
    static let identifiers = ["ada", "alan", "grace"]

    /// A store holding three contacts and one unreadable journal line.
    private func damagedStore(_ group: TemporaryAppGroup) throws -> (snapshot: Data, journal: Data) {
        for name in Self.identifiers {
            try HostRunner.process.succeed(["add", "--id", name, "--given-name", name.capitalized], in: group)
        }
        let store = CLIHarness.database(group).store
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store.journalPath))
        try handle.seekToEnd()
        try handle.write(
            contentsOf: Data(#"{"seq":4,"upsert":[{"identifier":"bad","birthday":"never"}]}"#.utf8 + [0x0A]))
        try handle.close()
        return (
            try Data(contentsOf: URL(fileURLWithPath: store.snapshotPath)),
            try Data(contentsOf: URL(fileURLWithPath: store.journalPath))
        )
    }

    /// Puts the damaged store back as it was and removes what a repair added.
    private func restore(_ template: (snapshot: Data, journal: Data), in group: TemporaryAppGroup) throws {
        let store = CLIHarness.database(group).store
        for name in try FileManager.default.contentsOfDirectory(atPath: store.directory)
        where name.contains(".damaged-") || name.contains(".tmp-") || name == "name-index" {
            try FileManager.default.removeItem(atPath: store.directory + "/" + name)
        }
        try template.snapshot.write(to: URL(fileURLWithPath: store.snapshotPath))
        try template.journal.write(to: URL(fileURLWithPath: store.journalPath))
    }

    /// `doctor --repair` under strace with `fault` injected at the `occurrence`-th call of `syscall`.
    private func interruptedRepair(
        _ group: TemporaryAppGroup, syscall: String, occurrence: Int, fault: String, log: String = "/dev/null"
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            try StraceTool.path(),
            [
                "-f", "-qq", "-o", log, "-e", "trace=\(syscall)",
                "-e", "inject=\(syscall):\(fault):when=\(occurrence)",
                BuiltProducts.path("contacts-host"), "--app-group", group.path, "doctor", "--repair",
            ], environment: group.environment)
    }

    /// How many times the repair calls `syscall` when nothing interrupts it.
    private func calls(of syscall: String, in group: TemporaryAppGroup) throws -> Int {
        let log = group.path + "/../cps-strace-\(UUID().uuidString).log"
        defer { unlink(log) }
        let result = try ProcessRunner.run(
            try StraceTool.path(),
            [
                "-f", "-qq", "-o", log, "-e", "trace=\(syscall)", BuiltProducts.path("contacts-host"),
                "--app-group", group.path, "doctor", "--repair",
            ], environment: group.environment)
        #expect(result.exitCode == 0, "\(result)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.contains(" \(syscall)(") || $0.hasPrefix("\(syscall)(") }.count
    }

    /// The invariant after an interruption: nothing reads as a smaller store, and a repair restores all.
    private func expectNothingLost(_ group: TemporaryAppGroup, _ context: String) throws {
        let list = try HostRunner.process.run(["list", "--json"], in: group)
        if list.exitCode == 0 {
            let listed = try CLIHarness.contacts(list.stdout).map(\.identifier).sorted()
            #expect(listed == Self.identifiers, "\(context): the store reads as \(listed) — \(list)")
        } else {
            #expect(list.stderr.contains("contacts/"), "\(context): refused without naming the store — \(list)")
        }
        let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
        #expect(repair.exitCode == 0, "\(context): the repair afterwards failed — \(repair)")
        let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
        #expect(listed.map(\.identifier).sorted() == Self.identifiers, "\(context): after the second repair")
    }

    @Test(
        "killed (SIGKILL, SIGINT) before each link, rename and fsync of the repair",
        arguments: ["link", "rename", "fsync"])
    func killedAtEveryStep(syscall: String) throws {
        try withTemporaryAppGroup { group in
            let template = try damagedStore(group)
            let count = try calls(of: syscall, in: group)
            #expect(count >= 2, "the repair made \(count) \(syscall) calls; the test no longer covers it")
            for occurrence in 1...max(count, 1) {
                for signal in ["SIGKILL", "SIGINT"] {
                    try restore(template, in: group)
                    let run = try interruptedRepair(
                        group, syscall: syscall, occurrence: occurrence, fault: "signal=\(signal)")
                    try expectNothingLost(
                        group, "\(signal) before \(syscall) #\(occurrence) (run: exit \(run.exitCode))")
                }
            }
        }
    }

    @Test("each write in turn failing with ENOSPC (a full disk): a clear error, nothing lost")
    func fullDiskAtEveryWrite() throws {
        try withTemporaryAppGroup { group in
            let template = try damagedStore(group)
            let count = try calls(of: "write", in: group)
            try restore(template, in: group)
            let log = group.path + "/../cps-strace-\(UUID().uuidString).log"
            defer { try? FileManager.default.removeItem(atPath: log) }
            for occurrence in 1...max(count, 1) {
                try restore(template, in: group)
                let run = try interruptedRepair(
                    group, syscall: "write", occurrence: occurrence, fault: "error=ENOSPC", log: log)
                if run.exitCode != 0 {
                    // Said in words, naming what failed. strace counts `when=` per thread, so when the
                    // message is the first write of the thread that prints it, the injection fails the
                    // message itself — which a real full disk never does to a pipe. The trace shows it.
                    let trace = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    let messageInjected = trace.split(separator: "\n").contains {
                        $0.contains("write(2, ") && $0.contains("(INJECTED)")
                    }
                    #expect(
                        run.stderr.contains("No space left on device") || run.stderr.contains("ENOSPC")
                            || run.stderr.contains("write") || messageInjected,
                        "write #\(occurrence): \(run)\n--- trace\n\(trace)")
                }
                try expectNothingLost(group, "ENOSPC from write #\(occurrence) (run: exit \(run.exitCode))")
            }
        }
    }

    @Test("a repair on a file system that is really full fails, keeps the damaged store, and works once there is room")
    func realFullDisk() throws {
        try withTemporaryAppGroup(onScratchFileSystemOf: 1 << 20) { group, disk in
            // A contact large enough that the rebuilt snapshot cannot fit into what is left.
            let note = String(repeating: "n", count: 40_000)
            try HostRunner.process.succeed(["add", "--id", "zoe", "--given-name", "Zoe", "--note", note], in: group)
            _ = try damagedStore(group)
            _ = try disk.fill(leaving: 8 * 1024)
            let failed = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(failed.exitCode != 0, "\(failed)")
            #expect(failed.stderr.contains("No space left on device"), "\(failed)")
            let list = try HostRunner.process.run(["list"], in: group)
            #expect(list.exitCode != 0, "the damaged store must not read as a smaller one: \(list)")
            disk.unfill()
            try HostRunner.process.succeed(["doctor", "--repair"], in: group)
            let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
            #expect(listed.map(\.identifier).sorted() == Self.identifiers + ["zoe"])
        }
    }
}
