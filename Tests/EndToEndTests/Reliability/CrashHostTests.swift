import ContactProviderTesting
import Foundation
import Glibc
import TestSupport
import Testing

/// SIGKILL `contacts-host` at random points while it writes: nothing acknowledged is lost, nothing
/// half-written is visible, and the next write works.
@Suite("Reliability: the host killed at random points")
struct CrashHostTests {
    @Test("adds, updates, deletes, imports and resets survive SIGKILL at random points")
    func killTheHost() throws {
        try withTemporaryAppGroup { group in
            let seed: UInt64 = 20_261_130
            var random = SeededRandom(seed: seed)
            let kills = TestScale.isFullSize ? 150 : 24
            let host = BuiltProducts.path("contacts-host")

            // What an acknowledged write promises: these contacts exist (with one of these notes)…
            var mustHave: [String: Set<String>] = [:]
            // …and these do not (acknowledged deletes and resets).
            var mustNotHave: Set<String> = []
            var importCount = 0
            var interrupted = 0
            for step in 0..<kills {
                let delay = random.below(25_000)
                let kind = random.below(100)
                let run: KilledRun
                var killedImport: [String]?
                var killedReset = false
                if kind < 45 || mustHave.isEmpty {
                    let id = "h\(step)"
                    run = try KilledRun.run(
                        host, ["add", "--id", id, "--given-name", "Kill\(step)", "--note", "n0"],
                        environment: group.environment, delayMicroseconds: delay)
                    if run.acknowledged {
                        #expect(run.stdout == id + "\n", "add prints the identifier alone")
                        mustHave[id] = ["n0"]
                    }
                } else if kind < 70 {
                    let id = mustHave.keys.sorted()[random.below(mustHave.count)]
                    let note = "n\(step)"
                    run = try KilledRun.run(
                        host, ["update", id, "--note", note], environment: group.environment, delayMicroseconds: delay)
                    mustHave[id] = run.acknowledged ? [note] : mustHave[id]!.union([note])
                } else if kind < 85 {
                    let id = mustHave.keys.sorted()[random.below(mustHave.count)]
                    run = try KilledRun.run(
                        host, ["delete", id], environment: group.environment, delayMicroseconds: delay)
                    mustHave[id] = nil
                    if run.acknowledged { mustNotHave.insert(id) }
                } else if kind < 97 {
                    importCount += 1
                    let prefix = "imp\(importCount)"
                    let file = try makeImportFile(group, count: 60, prefix: prefix)
                    run = try KilledRun.run(
                        host, ["import", file], environment: group.environment, delayMicroseconds: delay)
                    let ids = (0..<60).map { "\(prefix)-\(String(format: "%05d", $0))" }
                    if run.acknowledged {
                        for id in ids { mustHave[id] = [""] }
                    } else {
                        killedImport = ids
                    }
                } else {
                    run = try KilledRun.run(host, ["reset"], environment: group.environment, delayMicroseconds: delay)
                    if run.acknowledged {
                        mustNotHave.formUnion(mustHave.keys)
                        mustHave = [:]
                    } else {
                        killedReset = true
                    }
                }
                interrupted += run.acknowledged ? 0 : 1

                // After every kill the database opens…
                let contacts = try appContacts(group)
                if killedReset, contacts.isEmpty {
                    // …a killed reset either happened whole (an empty database) or not at all.
                    mustNotHave.formUnion(mustHave.keys)
                    mustHave = [:]
                }
                // …every acknowledged write is there, and no acknowledged delete came back…
                for (id, notes) in mustHave {
                    let contact = try #require(
                        contacts[id], "step \(step): acknowledged contact \(id) is missing (seed \(seed))")
                    #expect(
                        notes.contains(contact["note"] as? String ?? ""),
                        "step \(step): \(id) has a note no write gave it: \(contact)")
                }
                for id in mustNotHave {
                    #expect(contacts[id] == nil, "step \(step): deleted contact \(id) came back (seed \(seed))")
                }
                // …nothing is half-written: a killed import is applied contact by contact, so what is
                // there is a prefix of the file, each contact whole.
                if let ids = killedImport {
                    let there = ids.map { contacts[$0] != nil }
                    let count = there.prefix(while: { $0 }).count
                    #expect(
                        !there[count...].contains(true), "step \(step): a killed import left a non-prefix of the file")
                    for id in ids.prefix(count) {
                        #expect(
                            contacts[id]?["givenName"] as? String == "Given\(Int(id.suffix(5))!)",
                            "step \(step): \(id) is not whole")
                        mustHave[id] = [""]
                    }
                }
                // …and the next write works.
                let probe = try HostRunner.process.run(
                    ["add", "--id", "probe\(step)", "--given-name", "Probe"], in: group)
                #expect(probe.exitCode == 0, "step \(step): a write after the kill failed: \(probe)")
                mustHave["probe\(step)"] = [""]
            }
            print(
                "crash-host: \(kills) runs killed at random points, \(interrupted) before acknowledging; no acknowledged write lost (seed \(seed))"
            )
            #expect(interrupted > 0, "no run was interrupted; the kill delays are too long to test anything")
        }
    }
}
