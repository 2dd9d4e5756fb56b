import Foundation
import Glibc
import TestSupport
import Testing

/// Real processes, real FIFOs: contacts-host launches demo-provider on demand and the system
/// store ends equal to the app database.
@Suite("End to end: sync through the provider process")
struct SyncEndToEndTests {
    @Test("add → signal launches the provider → system list equals list; update and delete propagate")
    func addUpdateDelete() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            let john = try host(
                ["add", "--given-name", "John", "--family-name", "Appleseed", "--phone", "mobile=+1 408 555 0101"],
                in: group
            ).output
            let jane = try host(["add", "--given-name", "Jane", "--email", "work=jane@example.com"], in: group).output
            #expect(group.providerPID() == nil)

            let first = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(first["enumeration"] as? String == "content")
            #expect(first["systemCount"] as? Int == 2)
            #expect(first["error"] == nil)
            let anchor = try #require(first["anchor"] as? [String: Any])
            #expect(anchor["offset"] as? Int == 0)
            #expect(group.providerPID() != nil, "signal should have launched the provider")
            try expectSystemMatchesApp(group, count: 2)

            try host(["update", john, "--phone", "work=+1 408 555 0102", "--phone", "home=+1 408 555 0103"], in: group)
            try host(["delete", jane], in: group)
            let second = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(second["enumeration"] as? String == "changes")
            #expect(second["updated"] as? Int == 1)
            #expect(second["deleted"] as? Int == 1)
            #expect(second["systemCount"] as? Int == 1)
            try expectSystemMatchesApp(group, count: 1)

            let idle = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(idle["updated"] as? Int == 0)
            #expect(idle["deleted"] as? Int == 0)
            try stopProvider(group)
        }
    }

    @Test("the README's tour: a bulk write behind a live anchor (generate 1000, which compacts) arrives as changes")
    func bulkWriteBehindAnchorArrivesAsChanges() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Ada"], in: group)
            try host(["add", "--given-name", "Alan"], in: group)
            let first = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(first["enumeration"] as? String == "content" && first["systemCount"] as? Int == 2)
            let contacts = group.path + "/contacts"
            let generation = try String(contentsOfFile: contacts + "/snapshot.jsonl", encoding: .utf8)
                .prefix { $0 != "\n" }
            try host(["generate", "1000", "--seed", "1"], in: group)
            // The write compacted the app database: the anchor the system holds is behind the new snapshot.
            let compacted = try String(contentsOfFile: contacts + "/snapshot.jsonl", encoding: .utf8)
                .prefix { $0 != "\n" }
            #expect(compacted != generation, "generate 1000 no longer compacts; the test no longer covers item 3")
            let second = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(second["enumeration"] as? String == "changes", "\(second)")
            #expect(second["restarted"] as? Bool == false, "\(second)")
            #expect(second["updated"] as? Int == 1000 && second["deleted"] as? Int == 0, "\(second)")
            #expect(second["systemCount"] as? Int == 1002)
            try expectSystemMatchesApp(group, count: 1002)
            try stopProvider(group)
        }
    }

    @Test("2,500 contacts with a page size of 1,000 arrive complete in 3 pages")
    func manyPages() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1000"], in: group)
            try host(["import", try makeImportFile(group, count: 2500)], in: group)
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["pages"] as? Int == 3)
            #expect(report["systemCount"] as? Int == 2500)
            try expectSystemMatchesApp(group, count: 2500)
            try stopProvider(group)
        }
    }

    @Test("system reset and app reset (expiry) both lead to a full re-enumeration with nothing stale")
    func resetAndExpiry() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            for name in ["A", "B", "C"] { try host(["add", "--given-name", name], in: group) }
            try host(["signal", "--wait"], in: group)

            try host(["system", "reset"], in: group)
            #expect(try host(["system", "list"], in: group).stdout.isEmpty)
            let again = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(again["enumeration"] as? String == "content")
            try expectSystemMatchesApp(group, count: 3)

            // An app reset forgets the generation: the provider answers changeAnchorExpired.
            try host(["reset"], in: group)
            try host(["add", "--given-name", "Fresh"], in: group)
            try host(["system", "reset"], in: group)
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 1)

            // The app database alone is reset (new generation) while the system keeps its anchor.
            let database = group.path + "/contacts"
            #expect(FileManager.default.fileExists(atPath: database + "/snapshot.jsonl"))
            try host(["add", "--given-name", "Second"], in: group)
            try host(["signal", "--wait"], in: group)
            try resetAppDatabaseOnly(group)
            try host(["add", "--given-name", "Third"], in: group)
            let expired = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(expired["restarted"] as? Bool == true, "changeAnchorExpired should restart content enumeration")
            try expectSystemMatchesApp(group, count: 1)
            try stopProvider(group)
        }
    }

    /// Empties the app database without touching the system (what a backup restore would do).
    private func resetAppDatabaseOnly(_ group: TemporaryAppGroup) throws {
        let contacts = group.path + "/contacts"
        for file in ["snapshot.jsonl", "journal.jsonl"] {
            try FileManager.default.removeItem(atPath: contacts + "/" + file)
        }
    }

    @Test("a provider killed mid content enumeration resumes from the last committed page: nothing lost or duplicated")
    func killDuringContent() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1000"], in: group)
            try host(["import", try makeImportFile(group, count: 2500)], in: group)

            let step = try host(["step"], in: group)
            #expect(step.stdout.contains("running: content page (initial, 0)"))
            let status = try jsonObject(try host(["status", "--json"], in: group))
            #expect(status["systemCount"] as? Int == 1000)
            let next = try #require(status["nextPage"] as? [String: Any])
            #expect(next["offset"] as? Int == 1000)

            let pid = try #require(group.providerPID())
            kill(pid, SIGKILL)
            #expect(ProcessExit.waitUntilGone(pid), "process \(pid) did not exit after SIGKILL")

            let resumed = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(resumed["pages"] as? Int == 2, "should resume at offset 1000, not start over")
            #expect(resumed["systemCount"] as? Int == 2500)
            try expectSystemMatchesApp(group, count: 2500)
            try stopProvider(group)
        }
    }

    @Test("a provider killed mid change enumeration resumes from the last committed anchor")
    func killDuringChanges() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--batch-size", "2"], in: group)
            var ids: [String] = []
            for index in 0..<6 { ids.append(try host(["add", "--given-name", "P\(index)"], in: group).output) }
            try host(["signal", "--wait"], in: group)
            for id in ids.prefix(4) { try host(["update", id, "--note", "changed"], in: group) }
            try host(["delete", ids[5]], in: group)

            let step = try host(["step", "--json"], in: group)
            #expect(try jsonObject(step)["batches"] as? Int == 1)
            let pid = try #require(group.providerPID())
            kill(pid, SIGKILL)
            #expect(ProcessExit.waitUntilGone(pid), "process \(pid) did not exit after SIGKILL")

            let rest = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(rest["enumeration"] as? String == "changes")
            #expect(rest["batches"] as? Int == 2)
            #expect(rest["deleted"] as? Int == 1)
            try expectSystemMatchesApp(group, count: 5)
            try stopProvider(group)
        }
    }

    @Test("two hosts signalling at once both get their answer from one provider")
    func concurrentSignals() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "Solo"], in: group)
            let results = ResultsBox()
            let threads = (0..<2).map { _ in
                Thread {
                    results.append(Result { try HostRunner.process.run(["signal", "--wait", "--json"], in: group) })
                }
            }
            for item in threads { item.start() }
            results.wait(for: 2)
            for result in results.all {
                let output = try result.get()
                #expect(output.exitCode == 0, "\(output)")
                #expect(try jsonObject(output)["systemCount"] as? Int == 1)
            }
            try expectSystemMatchesApp(group, count: 1)
            try stopProvider(group)
        }
    }

    @Test("signalling a disabled domain fails with a clear error; disable empties the system store (R7, R8)")
    func disabledDomain() throws {
        try withTemporaryAppGroup { group in
            try host(["add", "--given-name", "Nobody"], in: group)
            let refused = try host(["signal", "--wait"], in: group, expect: 1)
            #expect(refused.stderr.contains("disabled"))
            #expect(refused.stdout.isEmpty)
            #expect(group.providerPID() == nil, "the extension must not run before the domain is enabled")

            try host(["enable"], in: group)
            try host(["signal", "--wait"], in: group)
            try host(["disable"], in: group)
            #expect(try host(["system", "list"], in: group).stdout.isEmpty)
            #expect(group.providerPID() == nil, "disable stops the provider")
            let status = try jsonObject(try host(["status", "--json"], in: group))
            #expect(status["enabled"] as? Bool == false)
        }
    }

    @Test("--trace prints one line per enumerator and observer call")
    func trace() throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--page-size", "1"], in: group)
            try host(["add", "--given-name", "One", "--id", "one"], in: group)
            try host(["add", "--given-name", "Two", "--id", "two"], in: group)
            let traced = try host(["signal", "--trace"], in: group)
            let lines = traced.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "→ enumerateContent(in: (initial, 0))")
            #expect(lines.contains("  didEnumerate(1 item: one \"One\")"))
            #expect(lines.contains { $0.hasPrefix("  didFinishEnumeratingPage(upTo: (\"cps1:") })
            #expect(lines.contains { $0.hasPrefix("  didFinishEnumeratingContent(upTo: \"cps1:") })
            try stopProvider(group)
        }
    }

    @Test("invalidate stops the provider and status shows it; a new signal relaunches it")
    func invalidateAndRelaunch() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--given-name", "X"], in: group)
            try host(["signal", "--wait"], in: group)
            #expect(try jsonObject(try host(["status", "--json"], in: group))["providerRunning"] as? Bool == true)
            try host(["invalidate"], in: group)
            #expect(try jsonObject(try host(["status", "--json"], in: group))["providerRunning"] as? Bool == false)
            try host(["add", "--given-name", "Y"], in: group)
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 2)
            let log = try String(contentsOfFile: group.path + "/run/defaultDomain/provider.log", encoding: .utf8)
            #expect(log.components(separatedBy: "serving domain").count == 3, "two launches expected:\n\(log)")
            try stopProvider(group)
        }
    }
}

/// Collects results from threads; `wait(for:)` blocks on a semaphore, not a sleep.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<ProcessResult, Error>] = []
    private let semaphore = DispatchSemaphore(value: 0)

    func append(_ result: Result<ProcessResult, Error>) {
        lock.lock()
        results.append(result)
        lock.unlock()
        semaphore.signal()
    }

    func wait(for count: Int) {
        for _ in 0..<count { semaphore.wait() }
    }

    var all: [Result<ProcessResult, Error>] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
