import ContactProviderTesting
import Foundation
import Glibc
import TestSupport
import Testing

/// SIGKILL the provider at random points of content and change enumeration; after a relaunch the
/// system store equals the app database, resumed from the last committed page or anchor.
@Suite("Reliability: the provider killed at random points")
struct CrashProviderTests {
    @Test("kills during content and change enumeration lose and duplicate nothing")
    func killTheProvider() throws {
        try withTemporaryAppGroup { group in
            let seed: UInt64 = 77
            var random = SeededRandom(seed: seed)
            let kills = TestScale.isFullSize ? 120 : 10
            let size = TestScale.isFullSize ? 5_000 : 600
            try host(["enable", "--page-size", "20", "--batch-size", "15"], in: group)
            try host(["import", try makeImportFile(group, count: size, prefix: "base")], in: group)
            let hostPath = BuiltProducts.path("contacts-host")
            var resumedPages = 0
            var edits = 0

            for round in 0..<kills {
                // Edits, and sometimes a system reset so the next sync is a content enumeration.
                for _ in 0..<random.below(40) {
                    let all = try appContacts(group).keys.sorted()
                    edits += 1
                    switch random.below(3) {
                    case 0: try host(["add", "--given-name", "R\(round)"], in: group)
                    case 1 where !all.isEmpty:
                        try host(["update", all[random.below(all.count)], "--note", "r\(round)"], in: group)
                    case 2 where !all.isEmpty: try host(["delete", all[random.below(all.count)]], in: group)
                    default: break
                    }
                }
                if random.below(2) == 0 { try host(["system", "reset"], in: group) }
                // Start a sync and kill the provider somewhere inside it.
                let waiter = Process()
                waiter.executableURL = URL(fileURLWithPath: hostPath)
                waiter.arguments = ["signal", "--wait", "--timeout", "60"]
                waiter.environment = group.environment
                waiter.standardOutput = FileHandle.nullDevice
                waiter.standardError = FileHandle.nullDevice
                try ProcessRunner.runUnblocked(waiter)
                usleep(useconds_t(5_000 + random.below(30_000)))
                let victim = group.providerPID()
                if let victim { kill(victim, SIGKILL) }
                waiter.waitUntilExit()  // it answers, or reports that the provider died
                if let victim {
                    #expect(ProcessExit.waitUntilGone(victim), "process \(victim) did not exit after SIGKILL")
                }

                // Relaunch: the first sync resumes from the committed position, not from scratch.
                let status = try jsonObject(try host(["status", "--json"], in: group))
                let resume = (status["nextPage"] as? [String: Any])?["offset"] as? Int ?? 0
                let traced = try jsonObject(try host(["signal", "--wait", "--json", "--trace"], in: group))
                #expect(traced["error"] == nil, "round \(round): \(traced)")
                let first = (traced["transcript"] as? [String])?.first ?? ""
                if status["phase"] as? String == "content", resume > 0 {
                    #expect(
                        first.hasPrefix("→ enumerateContent(in: (\"cps1:") && first.hasSuffix(", \(resume)))"),
                        "round \(round): expected to resume at offset \(resume), started with \(first)")
                    resumedPages += 1
                }
                // Catch up (a finished content enumeration is followed by the changes made meanwhile).
                try host(["signal", "--wait"], in: group)
                try expectSystemMatchesApp(group)
            }
            try stopProvider(group)
            print(
                "crash-provider: \(kills) kills at random points (\(resumedPages) mid content enumeration, resumed from the committed page), \(edits) edits, \(size) contacts; system store equal to the app database after every relaunch (seed \(seed))"
            )
        }
    }
}
