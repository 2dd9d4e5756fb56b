import AppGroupStore
import Foundation
import TestSupport
import Testing

/// Issue 10 items 1, 2, 5 and 6 through the built `contacts-host`.
@Suite("contacts-host: damaged stores, identifier identity, atomic delete, doctor")
struct StoreIntegrityCLITests {
    private func addThree(_ group: TemporaryAppGroup) throws {
        for name in ["Ada", "Grace", "Alan"] {
            try HostRunner.process.succeed(["add", "--id", name.lowercased(), "--given-name", name], in: group)
        }
    }

    @Test(
        "doctor finds a damaged journal line, export --salvage gets every readable contact, doctor --repair rebuilds the store"
    )
    func doctorRepairsDamagedJournal() throws {
        try withTemporaryAppGroup { group in
            try addThree(group)
            #expect(try HostRunner.process.succeed(["doctor"], in: group).hasPrefix("no problems"))
            let journal = CLIHarness.database(group).store.journalPath
            try IntegrityFiles.appendLine(
                "{\"seq\":4,\"upsert\":[{\"identifier\":\"bad\",\"birthday\":\"never\"}]}", to: journal)

            let list = try HostRunner.process.run(["list"], in: group)
            CLIHarness.expectFailure(list, mentioning: [journal + ":5:"])
            let check = try HostRunner.process.run(["doctor"], in: group)
            #expect(check.exitCode == 1, "\(check)")
            #expect(check.stdout.hasPrefix(journal + ":5: "), "\(check)")

            let salvage = try HostRunner.process.run(["export", "--salvage"], in: group)
            #expect(salvage.exitCode == 0, "\(salvage)")
            #expect(salvage.stderr.contains(journal + ":5: unreadable line"), "\(salvage)")
            let exported = try JSONSerialization.jsonObject(with: Data(salvage.stdout.utf8)) as? [String: Any]
            let contacts = exported?["contacts"] as? [[String: Any]]
            #expect(
                contacts?.compactMap { $0["identifier"] as? String }.sorted() == ["ada", "alan", "grace"], "\(salvage)")

            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(repair.stdout.contains("rebuilt with 3 contacts"), "\(repair)")
            #expect(repair.stdout.contains("lost " + journal + ":5: unreadable line"), "\(repair)")
            #expect(repair.stdout.contains("moved aside: " + journal + ".damaged-"), "\(repair)")
            #expect(try HostRunner.process.succeed(["list"], in: group).split(separator: "\n").count == 3)
            #expect(try HostRunner.process.succeed(["doctor"], in: group).hasPrefix("no problems"))
            try HostRunner.process.succeed(["add", "--id", "new", "--given-name", "New"], in: group)
        }
    }

    @Test(
        "A bad byte in the system store's last journal line: system reset refuses, doctor --repair drops the store, then it works"
    )
    func doctorDropsDamagedSystemStore() throws {
        try withTemporaryAppGroup { group in
            try addThree(group)
            try HostRunner.process.succeed(["system", "reset"], in: group)
            let journal = group.path + "/domains/defaultDomain/store/journal.jsonl"
            // One changed byte in the last line ("seq" → "sEq").
            try IntegrityFiles.appendLine("{\"sEq\":1,\"upsert\":[{\"identifier\":\"x\"}]}", to: journal)
            CLIHarness.expectFailure(
                try HostRunner.process.run(["system", "reset"], in: group), mentioning: [journal + ":2:"])

            let check = try HostRunner.process.run(["doctor"], in: group)
            #expect(check.exitCode == 1 && check.stdout.hasPrefix(journal + ":2: "), "\(check)")
            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(
                repair.stdout.contains("dropped (rebuilt by the next sync, a full content enumeration)"), "\(repair)")
            #expect(repair.stdout.contains("moved aside: " + journal + ".damaged-"), "\(repair)")
            try HostRunner.process.succeed(["system", "reset"], in: group)
            #expect(try HostRunner.process.succeed(["system", "list"], in: group).isEmpty)
            #expect(try HostRunner.process.succeed(["list"], in: group).split(separator: "\n").count == 3)
            #expect(try HostRunner.process.succeed(["doctor"], in: group).hasPrefix("no problems"))
        }
    }

    @Test("A missing snapshot is refused by list and add with its path, and nothing is written")
    func missingSnapshotRefused() throws {
        try withTemporaryAppGroup { group in
            try addThree(group)
            let store = CLIHarness.database(group).store
            try CLIHarness.database(group).store.compact()
            try HostRunner.process.succeed(["add", "--id", "late", "--given-name", "Late"], in: group)
            try FileManager.default.removeItem(atPath: store.snapshotPath)
            let files = CLIHarness.databaseFiles(group)
            CLIHarness.expectFailure(
                try HostRunner.process.run(["list"], in: group), mentioning: [store.snapshotPath + ":1:"])
            let add = try HostRunner.process.run(["add", "--given-name", "X"], in: group)
            #expect(add.exitCode == 1 && add.stderr.contains(store.snapshotPath + ":1:"), "\(add)")
            #expect(CLIHarness.databaseFiles(group) == files)
            // The doctor keeps what the journal still holds.
            let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
            #expect(repair.exitCode == 0, "\(repair)")
            #expect(try HostRunner.process.succeed(["list"], in: group).contains("late"))
        }
    }

    @Test("add --id café composed then decomposed: one contact, the second add refused as a duplicate")
    func identifierIdentity() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "caf\u{E9}", "--given-name", "Composed"], in: group)
            let second = try HostRunner.process.run(
                ["add", "--id", "cafe\u{301}", "--given-name", "Decomposed"], in: group)
            CLIHarness.expectFailure(second, mentioning: ["already exists"])
            #expect(try HostRunner.process.succeed(["list"], in: group).split(separator: "\n").count == 1)
            #expect(try HostRunner.process.succeed(["get", "cafe\u{301}"], in: group).contains("Composed"))
            try HostRunner.process.succeed(["delete", "cafe\u{301}"], in: group)
            #expect(try HostRunner.process.succeed(["list"], in: group).isEmpty)
        }
    }

    @Test("JSON and vCard imports with both spellings of café keep one contact")
    func importIdentity() throws {
        try withTemporaryAppGroup { group in
            let json =
                #"[{"identifier":"caf\u00e9","givenName":"Composed"},{"identifier":"cafe\u0301","givenName":"Decomposed"}]"#
            #expect(
                try HostRunner.process.succeed(["import", "-"], in: group, stdin: Data(json.utf8))
                    == "imported 2 contacts (1 added, 1 updated, 0 skipped)")
            let listed = try HostRunner.process.succeed(["list"], in: group)
            #expect(listed.split(separator: "\n").count == 1 && listed.contains("Decomposed"), "\(listed)")
            let card =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:cafe\u{301}\r\nFN:From vCard\r\nN:;From vCard;;;\r\nEND:VCARD\r\n"
            let result = try HostRunner.process.run(["import", "-"], in: group, stdin: Data(card.utf8))
            #expect(
                result.exitCode == 0 && result.output == "imported 1 contact (0 added, 1 updated, 0 skipped)",
                "\(result)")
            let after = try HostRunner.process.succeed(["list"], in: group)
            #expect(after.split(separator: "\n").count == 1 && after.contains("From vCard"), "\(after)")
        }
    }

    @Test("delete of many ids is one journal line")
    func deleteManyIsOneLine() throws {
        try withTemporaryAppGroup { group in
            let identifiers = (0..<300).map { "d\($0)" }
            let document = try JSONEncoder().encode(identifiers.map { ContactRecord(identifier: $0) })
            try HostRunner.process.succeed(["import", "-"], in: group, stdin: document)
            let journal = CLIHarness.database(group).store.journalPath
            let before = CLIHarness.lineCount(journal)
            try HostRunner.process.succeed(["delete"] + identifiers, in: group)
            #expect(CLIHarness.lineCount(journal) == before + 1)
            #expect(try HostRunner.process.succeed(["list"], in: group).isEmpty)
        }
    }
}

/// File helpers for these tests.
enum IntegrityFiles {
    /// Appends `line` and a newline to the file at `path`.
    static func appendLine(_ line: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

}
