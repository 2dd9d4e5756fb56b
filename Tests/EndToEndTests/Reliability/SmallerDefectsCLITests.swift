import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 12: impossible birthdays, byte order marks, duplicate JSON keys, leftovers of
/// interrupted waits and of providers, an unreadable domain.json, and a part-way import on a full disk.
@Suite("Reliability: smaller input and cleanup defects")
struct SmallerDefectsCLITests {
    @Test("--birthday refuses days that do not exist (2023-02-30, --02-30, 2023-02-29, 2023-04-31)")
    func impossibleBirthdays() throws {
        try withTemporaryAppGroup { group in
            for birthday in ["2023-02-30", "--02-30", "2023-02-29", "2023-04-31", "1900-02-29"] {
                let result = try HostRunner.process.run(
                    ["add", "--given-name", "X", "--birthday", birthday], in: group)
                CLIHarness.expectUsageError(result, mentioning: "is not a date")
            }
            #expect(CLIHarness.databaseFiles(group) == [nil, nil])
            for birthday in ["2024-02-29", "--02-29", "2000-02-29", "2023-12-31"] {
                let id = try HostRunner.process.succeed(
                    ["add", "--given-name", "X", "--birthday", birthday], in: group)
                #expect(try AppDatabase(appGroup: group.appGroup).get(id)?.birthday == birthday)
            }
        }
    }

    @Test("a JSON import that starts with a UTF-8 byte order mark is read")
    func byteOrderMark() throws {
        try withTemporaryAppGroup { group in
            let file = group.path + "/bom.json"
            try (Data([0xEF, 0xBB, 0xBF]) + Data(#"[{"identifier":"bom","givenName":"Bom"}]"#.utf8)).write(
                to: URL(fileURLWithPath: file))
            #expect(
                try HostRunner.process.succeed(["import", file], in: group)
                    == "imported 1 contact (1 added, 0 updated, 0 skipped)")
            #expect(try AppDatabase(appGroup: group.appGroup).get("bom")?.givenName == "Bom")
        }
    }

    @Test("a key given twice in a JSON contact is an error naming the key and line; nothing is written")
    func duplicateKeys() throws {
        try withTemporaryAppGroup { group in
            let file = group.path + "/dup.json"
            let text =
                "[\n{\"identifier\":\"a\",\"givenName\":\"A\"},\n{\"identifier\":\"b\",\"givenName\":\"B\",\"given\\u004eame\":\"C\"}\n]\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let result = try HostRunner.process.run(["import", file], in: group)
            CLIHarness.expectFailure(result, mentioning: [file, "line 3", "'givenName' appears twice"])
            #expect(CLIHarness.databaseFiles(group) == [nil, nil])
            // The same key in two different contacts (or nested objects) is fine.
            let fine = group.path + "/fine.json"
            try Data(
                #"[{"identifier":"a","givenName":"A","phoneNumbers":[{"label":"x","value":"1"},{"label":"y","value":"2"}]}]"#
                    .utf8
            )
            .write(to: URL(fileURLWithPath: fine))
            try HostRunner.process.succeed(["import", fine], in: group)
        }
    }

    @Test("signal on an unreadable domain.json says so (path and reason), not 'the domain is disabled'")
    func unreadableConfiguration() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            let configuration = group.path + "/domains/defaultDomain/domain.json"
            try Data("{\"enabled\": tru".utf8).write(to: URL(fileURLWithPath: configuration))
            for arguments in [["signal"], ["signal", "--wait"]] {
                let result = try HostRunner.process.run(arguments, in: group)
                CLIHarness.expectFailure(result, mentioning: [configuration, "malformed"])
                #expect(!result.stderr.contains("disabled"), "\(result)")
            }
        }
    }

    @Test("Ctrl-C during signal --wait removes the reply FIFO; a provider removes what others left behind")
    func interruptedWaitAndLeftovers() throws {
        try withTemporaryAppGroup { group in
            try host(["enable"], in: group)
            try host(["signal", "--wait"], in: group)
            try stopProvider(group)
            let replies = group.path + "/run/defaultDomain/replies"

            // A provider that takes the doorbell but never answers: a foreground one, stopped.
            let provider = try SpawnedProcess(
                [BuiltProducts.path("demo-provider"), "--app-group", group.path, "--foreground"],
                environment: group.environment)
            defer { provider.kill() }
            let started = Date()
            while group.providerPID() != provider.pid, Date().timeIntervalSince(started) < 20 { usleep(10_000) }
            #expect(group.providerPID() == provider.pid)
            #expect(kill(provider.pid, SIGSTOP) == 0)

            let waitingErrors = NSTemporaryDirectory() + "/cps-waiting-\(UUID().uuidString).err"
            defer { unlink(waitingErrors) }
            let waiting = try SpawnedProcess(
                [BuiltProducts.path("contacts-host"), "signal", "--wait"], environment: group.environment,
                stderr: waitingErrors)
            defer { waiting.kill() }
            // The FIFO appears when the host starts waiting (no event to wait on from here: poll, bounded).
            while ((try? FileManager.default.contentsOfDirectory(atPath: replies)) ?? []).isEmpty,
                Date().timeIntervalSince(started) < 30
            {
                usleep(10_000)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: replies).count == 1)
            #expect(kill(waiting.pid, SIGINT) == 0)
            #expect(
                waiting.exitCode == 130,
                "stderr: \((try? String(contentsOfFile: waitingErrors, encoding: .utf8)) ?? "")")
            #expect(try FileManager.default.contentsOfDirectory(atPath: replies).isEmpty)
            provider.kill()

            // Leftovers of dead processes: a temp file, an abandoned trace, a reply FIFO with no reader.
            let dead = try SpawnedProcess(["/usr/bin/true"])
            dead.wait()
            let temp = group.path + "/domains/defaultDomain/.last-sync.json.tmp-\(dead.pid)-1"
            let trace = group.path + "/run/defaultDomain/traces/\(UUID().uuidString).log"
            let fifo = replies + "/\(UUID().uuidString).fifo"
            #expect(FileManager.default.createFile(atPath: temp, contents: Data("x".utf8)))
            #expect(FileManager.default.createFile(atPath: trace, contents: Data("x".utf8)))
            #expect(mkfifo(fifo, 0o600) == 0)
            var old = [timeval(tv_sec: time(nil) - 7200, tv_usec: 0), timeval(tv_sec: time(nil) - 7200, tv_usec: 0)]
            #expect(utimes(trace, &old) == 0)
            #expect(utimes(fifo, &old) == 0)
            try host(["signal", "--wait"], in: group)  // launches a provider, which cleans up as it starts
            for path in [temp, trace, fifo] { #expect(CLIHarness.info(path) == nil, "\(path) is still there") }
            try stopProvider(group)
        }
    }

    @Test("an import that fails part-way on a full disk says how many contacts were written")
    func partialImportOnFullDisk() throws {
        try withTemporaryAppGroup(onScratchFileSystemOf: 1 << 20) { group, disk in
            try HostRunner.process.succeed(["add", "--given-name", "First", "--id", "first"], in: group)
            let note = String(repeating: "n", count: 300)
            let contacts = (0..<400).map { #"{"identifier":"c\#($0)","givenName":"C\#($0)","note":"\#(note)"}"# }
            let file = NSTemporaryDirectory() + "/cps-partial-\(UUID().uuidString).json"
            defer { unlink(file) }
            try Data(("[" + contacts.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: file))
            try disk.fill(leaving: 32 * 1024)

            let result = try HostRunner.process.run(["import", file], in: group)
            CLIHarness.expectFailure(
                result, mentioning: ["import stopped: ", " of 400 contacts were written", "No space left on device"])
            let written = try #require(
                result.stderr.range(of: "import stopped: ").flatMap {
                    Int(result.stderr[$0.upperBound...].prefix { $0.isNumber })
                })
            #expect(written > 0 && written < 400, "\(result)")
            let all = try AppDatabase(appGroup: group.appGroup).all()
            #expect(all.count == written + 1)
            #expect(Set(all.map(\.identifier)) == Set(["first"] + (0..<written).map { "c\($0)" }))
        }
    }
}
