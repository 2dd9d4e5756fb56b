import AppGroupStore
import Foundation
import TestSupport
import Testing

/// What needs the real binary: that it is built, and how it ends when its reader goes away (SIGPIPE).
/// The commands' parsing and output are tested in process (UnitTests/ContactsHostKit/ContactCommandsTests.swift).
@Suite("contacts-host contact commands, run as the built binary")
struct ContactCommandsCLITests {
    @Test("The test runs the contacts-host binary built next to it")
    func binaryIsBuilt() throws {
        let path = BuiltProducts.path("contacts-host")
        #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
        try withTemporaryAppGroup { group throws in
            #expect(try HostRunner.process.succeed(["--version"], in: group) == "contacts-host 0.1.0")
        }
    }

    @Test("A reader that stops early (list | head -n 1) ends contacts-host quietly, as SIGPIPE would")
    func closedPipe() throws {
        try withTemporaryAppGroup { group in
            let database = CLIHarness.database(group)
            // Far more output than a pipe buffers, so the writer is still writing when head exits.
            try database.store.append(
                upsert: (0..<10_000).map { index in
                    var record = ContactRecord(identifier: String(format: "p%05d", index))
                    record.givenName = "Given \(index)"
                    record.phoneNumbers = [.init(label: nil, value: "+1 555 0100")]
                    return record
                })
            let stderrPath = group.path + "/list.err"
            let statusPath = group.path + "/list.status"
            let result = try ProcessRunner.run(
                "/bin/sh",
                [
                    "-c", #"{ "$1" list 2>"$2"; echo $? >"$3"; } | head -n 1"#, "sh",
                    BuiltProducts.path("contacts-host"), stderrPath, statusPath,
                ],
                environment: group.environment)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.output == "p00000\tGiven 0\t+1 555 0100")
            let status = try String(contentsOfFile: statusPath, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(status == "141")  // 128 + SIGPIPE, not a crash (132, SIGILL from a failed try!)
            #expect(try String(contentsOfFile: stderrPath, encoding: .utf8) == "")
        }
    }
}
