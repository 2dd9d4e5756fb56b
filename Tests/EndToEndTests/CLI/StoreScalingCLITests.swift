import AppGroupStore
import Foundation
import TestSupport
import Testing

@Suite("contacts-host writers: concurrency and cost")
struct StoreScalingCLITests {
    /// Starts `/bin/sh -c script` with `environment`, its output going to files in `directory`.
    private func startLoop(_ script: String, name: String, environment: [String: String], directory: String) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, name, BuiltProducts.path("contacts-host")]
        process.environment = environment
        try #require(FileManager.default.createFile(atPath: "\(directory)/\(name).out", contents: nil))
        try #require(FileManager.default.createFile(atPath: "\(directory)/\(name).err", contents: nil))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/\(name).out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/\(name).err"))
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        return process
    }

    @Test("Two processes adding 50 contacts each at the same time lose no write")
    func concurrentWriters() throws {
        try withTemporaryAppGroup { group in
            let logs = group.path + "/logs"
            try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: false)
            // One loop lets the store assign UUIDs, the other chooses identifiers (a lookup under the lock).
            let generated = try startLoop(
                #"i=0; while [ $i -lt 50 ]; do i=$((i+1)); "$1" add --given-name "Gen $i" || exit 1; done"#,
                name: "generated", environment: group.environment, directory: logs)
            let chosen = try startLoop(
                #"i=0; while [ $i -lt 50 ]; do i=$((i+1)); "$1" add --id "chosen-$i" --given-name "Chosen $i" || exit 1; done"#,
                name: "chosen", environment: group.environment, directory: logs)
            generated.waitUntilExit()
            chosen.waitUntilExit()
            #expect(
                generated.terminationStatus == 0,
                "\(String(decoding: FileManager.default.contents(atPath: logs + "/generated.err") ?? Data(), as: UTF8.self))"
            )
            #expect(
                chosen.terminationStatus == 0,
                "\(String(decoding: FileManager.default.contents(atPath: logs + "/chosen.err") ?? Data(), as: UTF8.self))"
            )

            let printed = try ["generated", "chosen"].flatMap { name in
                try String(contentsOfFile: "\(logs)/\(name).out", encoding: .utf8).split(separator: "\n").map(
                    String.init)
            }
            #expect(printed.count == 100)
            #expect(printed.filter { $0.hasPrefix("chosen-") }.count == 50)
            #expect(printed.filter { UUID(uuidString: $0) != nil }.count == 50)

            let listed = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group)).map(
                \.identifier)
            #expect(listed.count == 100)
            #expect(Set(listed).count == 100)
            #expect(Set(listed) == Set(printed))
            let state = try CLIHarness.database(group).store.load()
            #expect(state.headSeq - state.baseSeq == 100)
        }
    }

    @Test("Adding one contact to a database of 20,000 appends one journal line and leaves the snapshot alone")
    func addDoesNotRewrite() throws {
        try withTemporaryAppGroup { group in
            let database = CLIHarness.database(group)
            let records = (0..<20_000).map { index -> ContactRecord in
                var record = ContactRecord(identifier: String(format: "big-%05d", index))
                record.givenName = "Given \(index)"
                record.familyName = "Family \(index % 97)"
                record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: String(format: "+1 555 %07d", index))]
                return record
            }
            try database.store.append(upsert: records)
            try database.store.compact()
            let snapshotPath = database.store.snapshotPath
            let journalPath = database.store.journalPath
            let snapshotBefore = try #require(CLIHarness.info(snapshotPath))
            let journalLinesBefore = CLIHarness.lineCount(journalPath)
            #expect(CLIHarness.lineCount(snapshotPath) == 20_001)

            #expect(
                try HostRunner.process.succeed(["add", "--id", "big-new", "--given-name", "New"], in: group)
                    == "big-new")
            #expect(try HostRunner.process.succeed(["add", "--given-name", "Unnamed"], in: group).count == 36)

            let snapshotAfter = try #require(CLIHarness.info(snapshotPath))
            #expect(snapshotAfter.st_ino == snapshotBefore.st_ino)
            #expect(snapshotAfter.st_size == snapshotBefore.st_size)
            #expect(snapshotAfter.st_mtim.tv_sec == snapshotBefore.st_mtim.tv_sec)
            #expect(snapshotAfter.st_mtim.tv_nsec == snapshotBefore.st_mtim.tv_nsec)
            #expect(CLIHarness.lineCount(journalPath) == journalLinesBefore + 2)
            #expect(try database.get("big-new")?.givenName == "New")
            #expect(try database.get("big-12345")?.givenName == "Given 12345")
            #expect(try database.store.load().count == 20_002)
        }
    }
}
