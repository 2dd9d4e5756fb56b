import Foundation
import TestSupport
import Testing

/// Issue 43, item 9: the kit's temporary App Group is thrown away at the end of the run, so neither the
/// kit nor the provider it launches waits for the disk there: on a loaded 2-core machine those barriers
/// were most of a run's wall time (`contacts-bench`, P5 loaded). Seen with strace: no `fsync` or
/// `fdatasync` under the run's App Group, although files are replaced there; the same provider in
/// the user's App Group still makes each commit durable.
@Suite("End to end: the kit does not wait for the disk in its temporary App Group")
struct KitDurabilityCLITests {
    /// The barriers and renames `strace -f -y` saw on paths containing `marker`.
    private struct Seen {
        var barriers: [String] = []
        var renames = 0
    }

    private func traced(
        _ arguments: [String], environment: [String: String], marker: String
    ) throws -> (Seen, ProcessResult) {
        let log = NSTemporaryDirectory() + "/cps-durability-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try ProcessRunner.run(
            try StraceTool.path(),
            ["-f", "-qq", "-y", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", log]
                + [BuiltProducts.path("contacts-host")] + arguments,
            environment: environment)
        var seen = Seen()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.contains(marker) {
            if line.contains("fsync(") || line.contains("fdatasync(") { seen.barriers.append(String(line)) }
            if line.contains("rename") { seen.renames += 1 }
        }
        return (seen, result)
    }

    @Test("a kit run makes no durability barrier in its App Group; a provider outside it still does")
    func noBarriersInTheKitsAppGroup() throws {
        try withTemporaryAppGroup { group in
            // The kit makes its App Group under TMPDIR: this test's own directory, so its paths are known.
            var environment = group.environment
            environment["TMPDIR"] = group.path
            let (kit, run) = try traced(
                [
                    "conformance", "--extension", BuiltProducts.path("demo-provider"), "--rules", "V1", "--operations",
                    "40",
                ],
                environment: environment, marker: group.path + "/cps-conformance-")
            #expect(run.exitCode == 0, "\(run)")
            #expect(kit.renames > 0, "the run replaced no file in its App Group: the trace saw nothing")
            #expect(kit.barriers.isEmpty, "barriers in the kit's temporary App Group: \(kit.barriers)")

            // The same provider syncing the user's App Group: each commit waits for the disk.
            // A short idle timeout: strace returns once the provider it saw launched has exited.
            try HostRunner.process.succeed(
                ["enable", "--extension", BuiltProducts.path("demo-provider"), "--idle-timeout", "0.2"], in: group)
            try HostRunner.process.succeed(["add", "--given-name", "Ada"], in: group)
            let (user, sync) = try traced(
                ["signal", "--wait"], environment: group.environment, marker: group.path + "/domains/")
            #expect(sync.exitCode == 0, "\(sync)")
            #expect(!user.barriers.isEmpty, "the provider's sync made nothing durable in the user's App Group")
        }
    }
}
