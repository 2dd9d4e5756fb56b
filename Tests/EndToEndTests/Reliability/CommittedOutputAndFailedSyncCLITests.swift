import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 42, items 1 and 2: a command that committed exits 0 even when its result cannot be printed,
/// and a journal append whose `fdatasync` fails is taken back before the error is reported, so a
/// refused change is never readable and its retry is not refused as a duplicate.
@Suite("Reliability: a committed command says so; a failed fdatasync leaves nothing readable")
struct CommittedOutputAndFailedSyncCLITests {
    /// `contacts-host ARGS > /dev/full`: every write to standard output fails with ENOSPC.
    private func hostWithFullStdout(_ arguments: [String], in group: TemporaryAppGroup) throws -> ProcessResult {
        // "$@" carries the arguments unquoted; the redirection is the shell's.
        try ProcessRunner.run(
            "/bin/sh", ["-c", "exec \"$@\" > /dev/full", "sh", BuiltProducts.path("contacts-host")] + arguments,
            environment: group.environment)
    }

    @Test(
        "add, update, import and generate with standard output on a full disk: exit 0, a warning, the change made once",
        arguments: ["add", "update", "import", "generate"])
    func committedCommandExitsZero(command: String) throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            let arguments: [String]
            var expected: Set<String> = ["ada"]
            switch command {
            case "add":
                arguments = ["add", "--id", "grace", "--given-name", "Grace"]
                expected.insert("grace")
            case "update":
                arguments = ["update", "ada", "--family-name", "Lovelace"]
            case "import":
                let file = group.path + "/import.json"
                try Data(#"[{"identifier": "alan", "givenName": "Alan"}]"#.utf8).write(to: URL(fileURLWithPath: file))
                arguments = ["import", file]
                expected.insert("alan")
            default:
                arguments = ["generate", "3", "--seed", "1"]
            }
            let result = try hostWithFullStdout(arguments, in: group)
            #expect(result.exitCode == 0, "\(command) committed but exited \(result.exitCode): \(result)")
            #expect(result.stderr.contains("warning: the change is committed"), "\(result)")
            #expect(result.stderr.contains("No space left on device"), "\(result)")
            let listed = Set(
                try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group)).map(\.identifier)
            )
            if command == "generate" {
                #expect(listed.count == 4, "\(listed)")
            } else {
                #expect(listed == expected, "\(listed)")
            }
            if command == "update" {
                let ada = try HostRunner.process.succeed(["get", "ada", "--json"], in: group)
                #expect(ada.contains("Lovelace"), "\(ada)")
            }
        }
    }

    @Test("A read-only command whose output cannot be written still fails (its output was the result)")
    func readOnlyCommandFails() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            let result = try hostWithFullStdout(["list"], in: group)
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stderr.contains("error: cannot write to standard output"), "\(result)")
        }
    }

    /// `contacts-host ARGS` with every `fdatasync` failing with EIO (a disk whose writeback fails: an
    /// import's retry of a batch one contact at a time meets the same error).
    private func hostWithFailingSync(_ arguments: [String], in group: TemporaryAppGroup) throws -> ProcessResult {
        try ProcessRunner.run(
            try StraceTool.path(),
            [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync", "-e", "inject=fdatasync:error=EIO",
                BuiltProducts.path("contacts-host"),
            ] + arguments, environment: group.environment)
    }

    @Test(
        "add and import whose journal fdatasync fails (EIO): exit 1 naming the journal, nothing readable, the retry succeeds",
        arguments: ["add", "import"])
    func failedSyncIsTakenBack(command: String) throws {
        try withTemporaryAppGroup { group in
            // The store exists, so the failing fdatasync is the one of the change's own journal lines.
            try HostRunner.process.succeed(["add", "--id", "ada", "--given-name", "Ada"], in: group)
            let arguments: [String]
            if command == "add" {
                arguments = ["add", "--id", "grace", "--given-name", "Grace"]
            } else {
                let file = group.path + "/import.json"
                try Data(
                    #"[{"identifier": "grace", "givenName": "Grace"}, {"identifier": "alan", "givenName": "Alan"}]"#
                        .utf8
                )
                .write(to: URL(fileURLWithPath: file))
                arguments = ["import", file]
            }
            let failed = try hostWithFailingSync(arguments, in: group)
            #expect(failed.exitCode == 1, "\(failed)")
            #expect(failed.stderr.contains("journal.jsonl") && failed.stderr.contains("fdatasync"), "\(failed)")
            let afterFailure = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
            #expect(afterFailure.map(\.identifier) == ["ada"], "a refused change is readable: \(afterFailure)")

            let retried = try HostRunner.process.run(arguments, in: group)
            #expect(retried.exitCode == 0, "the retry was refused: \(retried)")
            let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
            #expect(
                listed.map(\.identifier).sorted() == (command == "add" ? ["ada", "grace"] : ["ada", "alan", "grace"]))
        }
    }
}
