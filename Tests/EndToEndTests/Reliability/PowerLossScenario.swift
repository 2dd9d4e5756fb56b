import AppGroupStore
import Foundation
import Glibc
import TestSupport
import Testing

/// One command the power-loss replay records: how its App Group is prepared, its arguments, and what
/// its crash states must show.
struct PowerLossScenario: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// The App Group of one scenario run (inside a temporary directory, so it can start absent).
    struct Context {
        let holder: TemporaryAppGroup
        var appGroup: String { holder.path + "/ag" }
        var environment: [String: String] {
            var environment = holder.environment
            environment[AppGroup.environmentVariable] = appGroup
            return environment
        }

        /// Runs `contacts-host`, requiring exit 0.
        @discardableResult
        func host(_ arguments: [String]) throws -> String {
            let result = try HostRunner.process.run(arguments, environment: environment)
            try #require(result.exitCode == 0, "contacts-host \(arguments) → \(result)")
            return result.stdout
        }

        /// Enables the demo provider with a short idle timeout (the recorder waits for every traced
        /// process, the launched provider included, to exit) and small pages and batches.
        func enable(pageSize: Int = 2, batchSize: Int = 2) throws {
            try host([
                "enable", "--extension", BuiltProducts.path("demo-provider"), "--idle-timeout", "0.5", "--page-size",
                "\(pageSize)", "--batch-size", "\(batchSize)",
            ])
        }

        /// Writes a JSON import file of `count` contacts outside the App Group; returns its path.
        func importFile(_ name: String, count: Int, prefix: String, noteBytes: Int = 0) throws -> String {
            let note = String(repeating: "n", count: noteBytes)
            let records = (0..<count).map { index -> [String: String] in
                var record = [
                    "identifier": "\(prefix)-\(String(format: "%05d", index))", "givenName": "\(prefix)\(index)",
                ]
                if noteBytes > 0 { record["note"] = note }
                return record
            }
            let path = holder.path + "/" + name
            try JSONSerialization.data(withJSONObject: records).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Stops the provider, if one runs, and waits until it is gone: nothing may write into the
        /// App Group between the copy taken before the command and the recording.
        func stopProvider() throws {
            // Only where a provider ran: looking at a lock file that is not there would create it.
            guard FileManager.default.fileExists(atPath: appGroup + "/run/defaultDomain/provider.lock"),
                let pid = TemporaryAppGroup.providerPID(appGroupPath: appGroup)
            else { return }
            _ = try HostRunner.process.run(["invalidate"], environment: environment)
            if !ProcessExit.waitUntilGone(pid, seconds: 10) {
                kill(pid, SIGKILL)
                try #require(ProcessExit.waitUntilGone(pid, seconds: 5), "the provider \(pid) does not exit")
            }
        }

        /// The app's contacts, the system's, and whether the domain is enabled, as the programs print them.
        func observed() throws -> (app: [String: ContactRecord], system: [String: ContactRecord], enabled: Bool) {
            let app = try HostRunner.process.run(["list", "--json"], environment: environment)
            let system = try HostRunner.process.run(["system", "list", "--json"], environment: environment)
            let status = try HostRunner.process.run(["status"], environment: environment)
            return (
                app.exitCode == 0 ? try CrashStateCheck.byIdentifier(app.stdout, what: "list") : [:],
                system.exitCode == 0 ? try CrashStateCheck.byIdentifier(system.stdout, what: "system list") : [:],
                status.stdout.contains("(enabled)")
            )
        }
    }

    let name: String
    /// Whether a domain is involved: then the domain's state is compared and each state must sync.
    var domain = false
    /// Whether the command is all or nothing.
    var atomic = true
    /// What the App Group holds before the command.
    let setup: @Sendable (Context) throws -> Void
    /// The command's arguments.
    let arguments: @Sendable (Context) throws -> [String]
    /// For an import: the identifiers in the file's order (see ``CrashExpectation/importOrder``).
    var importOrder: [String]? = nil
    /// Checks that the recording did what the scenario is about (e.g. a compaction really happened).
    var verify: @Sendable ([FileOperation]) throws -> Void = { _ in }
    /// The contacts acknowledged before the command, from what `list` printed before and after it
    /// (`doctor --repair` starts from a store that does not open: what it keeps is what was acknowledged).
    var acknowledged:
        @Sendable (_ before: [String: ContactRecord], _ after: [String: ContactRecord]) ->
            [String: ContactRecord] = { before, _ in before }

    var description: String { name }
    var testDescription: String { name }

    func acknowledgedBefore(_ before: [String: ContactRecord], _ after: [String: ContactRecord]) -> [String:
        ContactRecord]
    {
        acknowledged(before, after)
    }

    func verifyRecording(_ operations: [FileOperation]) throws { try verify(operations) }

    /// What the replay leaves out: `provider.log` (append-only diagnostics nothing reads back as
    /// state), and what only lives as long as a process: the pid in `provider.lock` (read only while
    /// its flock is held) and the reply FIFOs of `signal --wait` (a crash leaves one that
    /// `doctor --repair` removes). They would only multiply crash states that differ in a log line or
    /// a dead process's pipe.
    static let isIgnored: @Sendable (String) -> Bool = { path in
        path.hasSuffix("/provider.log") || path.hasSuffix("/provider.lock") || path.contains("/replies/")
    }

    /// How many contacts the stores hold (more with `CPS_FULL_SIZE=1`).
    static var size: Int { TestScale.isFullSize ? 40 : 4 }

    /// The importer writes 8,192 contacts per batch (AppDatabase.upsert): 8,200 make two, 20,000 three.
    static var importCount: Int { TestScale.isFullSize ? 20_000 : 8_200 }

    static func adds(_ context: Context, count: Int, prefix: String) throws {
        for index in 0..<count {
            try context.host(["add", "--id", "\(prefix)\(index)", "--given-name", "\(prefix) \(index)", "--note", "n0"])
        }
    }

    static func renames(to target: String) -> @Sendable ([FileOperation]) throws -> Void {
        { operations in
            let renamed = operations.contains { if case .rename(_, let to) = $0 { to == target } else { false } }
            try #require(
                renamed, "the recording has no rename onto \(target): the scenario did not do what it is about")
        }
    }

    static let all: [PowerLossScenario] = [
        PowerLossScenario(
            name: "add into a new App Group", setup: { _ in },
            arguments: { _ in ["add", "--id", "first", "--given-name", "First"] }),
        PowerLossScenario(
            name: "add", setup: { try adds($0, count: size, prefix: "a") },
            arguments: { _ in ["add", "--id", "new", "--given-name", "New", "--note", "added"] }),
        PowerLossScenario(
            name: "update", setup: { try adds($0, count: size, prefix: "u") },
            arguments: { _ in ["update", "u1", "--note", "updated", "--family-name", "Changed"] }),
        PowerLossScenario(
            name: "multi-id delete", setup: { try adds($0, count: size + 2, prefix: "d") },
            arguments: { _ in ["delete", "d0", "d2", "d3"] }),
        PowerLossScenario(
            name: "import of more than one batch", atomic: false,
            setup: { try adds($0, count: 2, prefix: "i") },
            arguments: { ["import", try $0.importFile("import.json", count: importCount, prefix: "imp")] },
            importOrder: (0..<importCount).map { "imp-\(String(format: "%05d", $0))" }),
        PowerLossScenario(
            name: "add that compacts the app database",
            setup: { context in
                // Compaction starts once the journal passes max(snapshot, 256 KiB)
                // (JournaledStore.compactIfNeeded): 24 contacts of 10 kB stay under it, an add of 30 kB passes it.
                try context.host([
                    "import", try context.importFile("big.json", count: 24, prefix: "big", noteBytes: 10_000),
                ])
            },
            arguments: { _ in
                ["add", "--id", "last", "--given-name", "Last", "--note", String(repeating: "x", count: 30_000)]
            },
            verify: renames(to: "contacts/snapshot.jsonl")),
        PowerLossScenario(
            name: "reset", domain: true,
            setup: { context in
                try context.enable()
                try adds(context, count: size, prefix: "r")
                try context.host(["signal", "--wait"])
            },
            arguments: { _ in ["reset"] }),
        PowerLossScenario(
            name: "doctor --repair of a damaged journal",
            setup: { context in
                try adds(context, count: size, prefix: "h")
                let journal = context.appGroup + "/contacts/journal.jsonl"
                let handle = try #require(FileHandle(forWritingAtPath: journal))
                handle.seekToEndOfFile()
                handle.write(Data("{\"seq\":99,\"upsert\":[{\"identifier\":\"broken\"\n".utf8))
                try handle.close()
            },
            arguments: { _ in ["doctor", "--repair"] },
            acknowledged: { _, after in after }),
        PowerLossScenario(
            name: "enable", domain: true, setup: { try adds($0, count: 2, prefix: "e") },
            arguments: { _ in
                [
                    "enable", "--extension", BuiltProducts.path("demo-provider"), "--idle-timeout", "0.5",
                    "--page-size", "2",
                ]
            }),
        PowerLossScenario(
            name: "first content sync", domain: true,
            setup: { context in
                try context.enable()
                // Pages of 2: three pages, so a cut falls between committed pages.
                try adds(context, count: size + 1, prefix: "c")
            },
            arguments: { _ in ["signal", "--wait"] }),
        PowerLossScenario(
            name: "change sync", domain: true,
            setup: { context in
                try context.enable()
                try adds(context, count: size, prefix: "s")
                try context.host(["signal", "--wait"])
                try context.stopProvider()
                try context.host(["update", "s0", "--note", "changed"])
                try context.host(["delete", "s1"])
                try adds(context, count: 2, prefix: "t")
            },
            arguments: { _ in ["signal", "--wait"] }),
        PowerLossScenario(
            name: "sync followed by the system store's compaction", domain: true,
            setup: { context in
                // One batch for the whole change (the compaction, not the batching, is the subject here).
                try context.enable(pageSize: 1000, batchSize: 500)
                try adds(context, count: 2, prefix: "y")
                try context.host(["signal", "--wait"])
                try context.stopProvider()
                // A change sync of 28 contacts of 10 kB takes the system journal past 256 KiB.
                try context.host([
                    "import", try context.importFile("big.json", count: 28, prefix: "z", noteBytes: 10_000),
                ])
            },
            arguments: { _ in ["signal", "--wait"] },
            verify: renames(to: "domains/defaultDomain/store/snapshot.jsonl")),
    ]
}
