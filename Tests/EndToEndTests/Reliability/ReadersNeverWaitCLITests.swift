import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 44, item 1: readers never wait for a writer or a compaction. A process stopped while it
/// holds a store's exclusive lock (a writer in a debugger, a `kill -STOP`, a compaction of the system
/// store) used to make every read fail after the lock timeout; now every read-only command answers at
/// once with the last committed contacts, and writers still wait for each other.
///
/// The lock timeout is set to 2 s, so the old behaviour (poll for the shared lock, then fail with
/// `lockTimeout`) fails every check here: a reader that waited prints a note on stderr and exits 1.
@Suite("Reliability: readers never wait for a writer or a compaction")
struct ReadersNeverWaitCLITests {
    private func holdStopped(_ lockPath: String) throws -> SpawnedProcess {
        try StoppedLockHolder.hold(lockPath)
    }

    /// `contacts-host arguments` with a 2 s lock timeout: must succeed with nothing on stderr.
    private func read(_ arguments: [String], in group: TemporaryAppGroup) throws -> String {
        var environment = group.environment
        environment[FileLock.timeoutVariable] = "2"
        let result = try HostRunner.process.run(arguments, environment: environment)
        #expect(result.exitCode == 0, "\(arguments): \(result)")
        #expect(result.stderr.isEmpty, "\(arguments): \(result)")
        return result.stdout
    }

    private func identifiers(_ json: String) throws -> [String] {
        try CLIHarness.contacts(json).map(\.identifier).sorted()
    }

    @Test(
        "a writer stopped holding the app database's lock: list, get, status, export, search and doctor answer with the committed contacts; a writer still waits"
    )
    func stoppedWriter() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                ["add", "--given-name", "Ada", "--family-name", "Lovelace", "--id", "ada"], in: group)
            try HostRunner.process.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
            let store = CLIHarness.database(group).store
            let holder = try holdStopped(store.lockPath)
            defer { holder.kill() }
            // The stopped writer had started a line it never finished: readers ignore it and leave it.
            let torn = Data(#"{"seq":3,"upsert":[{"identifier":"half"#.utf8)
            let handle = try #require(FileHandle(forWritingAtPath: store.journalPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: torn)
            try handle.close()
            let before = CLIHarness.databaseFiles(group)

            #expect(try identifiers(try read(["list", "--json"], in: group)) == ["ada", "bob"])
            #expect(try read(["get", "ada", "--json"], in: group).contains(#""familyName":"Lovelace""#))
            let status = try #require(try CLIHarness.json(try read(["status", "--json"], in: group)) as? [String: Any])
            #expect(status["appCount"] as? Int == 2, "\(status)")
            let export = try #require(try CLIHarness.json(try read(["export"], in: group)) as? [String: Any])
            #expect((export["contacts"] as? [Any])?.count == 2, "\(export)")
            #expect(try read(["export", "--vcard"], in: group).contains("FN:Ada Lovelace"))
            #expect(try identifiers(try read(["search", "--name", "ada", "--json"], in: group)) == ["ada"])
            #expect(try read(["doctor"], in: group).contains("no problems"))
            #expect(CLIHarness.databaseFiles(group) == before, "a reader changed the database")

            // Writers still serialise: an add waits for the stopped writer and gives up.
            var environment = group.environment
            environment[FileLock.timeoutVariable] = "2"
            let add = try HostRunner.process.run(["add", "--given-name", "Cy", "--id", "cy"], environment: environment)
            #expect(add.exitCode == 1, "\(add)")
            #expect(add.stderr.contains("timed out after 2 s waiting for the lock"), "\(add)")
            #expect(CLIHarness.databaseFiles(group) == before)

            // Once it is gone, the next writer cuts the torn line off and appends after it.
            holder.kill()
            try HostRunner.process.succeed(["add", "--given-name", "Cy", "--id", "cy"], in: group)
            #expect(
                try identifiers(try HostRunner.process.succeed(["list", "--json"], in: group)) == ["ada", "bob", "cy"])
        }
    }

    @Test(
        "the system store held by a stopped compaction: status, system list and system search answer with the committed contacts"
    )
    func heldSystemStore() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(
                ["add", "--given-name", "Ada", "--family-name", "Lovelace", "--id", "ada"], in: group)
            try HostRunner.process.succeed(["add", "--given-name", "Bob", "--id", "bob"], in: group)
            try HostRunner.process.succeed(["enable"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            // The provider's daemon compacts under this lock (JournaledStore.compact).
            let holder = try holdStopped(group.path + "/domains/defaultDomain/store/lock")
            defer { holder.kill() }

            let status = try #require(try CLIHarness.json(try read(["status", "--json"], in: group)) as? [String: Any])
            #expect(status["systemCount"] as? Int == 2, "\(status)")
            #expect(status["appCount"] as? Int == 2, "\(status)")
            #expect(try identifiers(try read(["system", "list", "--json"], in: group)) == ["ada", "bob"])
            #expect(try identifiers(try read(["system", "search", "--name", "ada", "--json"], in: group)) == ["ada"])
            #expect(try read(["system", "list"], in: group).contains("Ada Lovelace"))
        }
    }
}
