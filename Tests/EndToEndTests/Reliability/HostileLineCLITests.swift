import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 31, item 6: no store line crashes a reader. A line a local process planted — a number with
/// more digits than `Int` holds, or arrays nested 30,000 deep — is refused with `path:line` by every
/// command that reads the store (and by the provider, for the system store), and `doctor --repair`,
/// the way out, works on it.
@Suite("Reliability: hostile store lines (20-digit numbers, deep nesting) are errors, never a crash")
struct HostileLineCLITests {
    static let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)

    /// Journal lines that must be refused, not trapped on, each with what it attacks.
    static let hostileJournalLines: [(name: String, line: String)] = [
        ("a 20-digit seq", #"{"seq":12345678901234567890,"upsert":[{"identifier":"x"}]}"#),
        ("30,000 nested arrays", #"{"seq":4,"upsert":[{"identifier":"x","n":"# + deep + "}]}"),
    ]

    /// A line Foundation reads (an unknown key is ignored, whatever its number): the fast reader must
    /// hand it over instead of trapping, and every command reads the contact.
    static let bigNumberUnderUnknownKey = #"{"seq":4,"upsert":[{"identifier":"x","n":99999999999999999999}]}"#

    /// Every command that reads the app database, with the text a refusal must contain.
    static let readers: [[String]] = [
        ["list"], ["get", "x"], ["status"], ["search", "--name", "Ada"], ["export"],
    ]

    private func append(_ line: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    @Test("every reader of the app database refuses the line with path:line; doctor finds it; --repair keeps the rest")
    func appDatabase() throws {
        for (name, line) in Self.hostileJournalLines {
            try withTemporaryAppGroup { group in
                try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
                try HostRunner.process.succeed(["add", "--id", "alan", "--given-name", "Alan"], in: group)
                let journal = CLIHarness.database(group).store.journalPath
                try append(line, to: journal)
                // The line is the journal's fourth (header, two entries).
                for reader in Self.readers {
                    let result = try HostRunner.process.run(reader, in: group)
                    // A trap would end the process by a signal (exit code 128+n or the signal's number).
                    #expect(result.exitCode == 1, "\(name): \(reader) → \(result)")
                    #expect(result.stderr.contains(journal + ":4:"), "\(name): \(reader) → \(result)")
                }
                let check = try HostRunner.process.run(["doctor"], in: group)
                #expect(check.exitCode == 1 && check.stdout.contains(journal + ":4:"), "\(name): \(check)")
                let repair = try HostRunner.process.run(["doctor", "--repair"], in: group)
                #expect(repair.exitCode == 0, "\(name): \(repair)")
                let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
                #expect(listed.map(\.identifier).sorted() == ["ada", "alan"], "\(name)")
            }
        }
    }

    @Test("a 20-digit number under a key the store does not know is read as Foundation reads it, by every command")
    func bigNumberIgnored() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            try append(
                Self.bigNumberUnderUnknownKey.replacingOccurrences(of: #""seq":4"#, with: #""seq":2"#),
                to: CLIHarness.database(group).store.journalPath)
            for reader in Self.readers { try HostRunner.process.succeed(reader, in: group) }  // "get x" finds it too
            let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
            #expect(listed.map(\.identifier) == ["ada", "x"])
            #expect(try HostRunner.process.succeed(["doctor"], in: group).hasPrefix("no problems"))
        }
    }

    @Test("a hostile line in the system store: the provider answers with the error (path:line) instead of crashing")
    func systemStore() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            try host(["signal", "--wait"], in: group)
            let journal = group.path + "/domains/defaultDomain/store/journal.jsonl"
            try host(["add", "--id", "alan", "--given-name", "Alan"], in: group)
            for (name, line) in Self.hostileJournalLines {
                let before = try Data(contentsOf: URL(fileURLWithPath: journal))
                try append(line, to: journal)
                let sync = try HostRunner.process.run(["signal", "--wait"], in: group)
                #expect(sync.exitCode == 1, "\(name): \(sync)")
                #expect(sync.stderr.contains(journal + ":"), "\(name): \(sync)")
                #expect(!sync.stderr.contains("exited before answering"), "\(name): the provider crashed: \(sync)")
                try before.write(to: URL(fileURLWithPath: journal))
            }
            try host(["signal", "--wait"], in: group)
            try expectSystemMatchesApp(group, count: 2)
            try host(["disable"], in: group)
        }
    }
}
