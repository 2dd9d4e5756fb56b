import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 23, items 1 and 2: an extension's end is a device's. The system ends the extension's process
/// without tearing its objects down (a model that saves in `deinit` never undoes the app's newer
/// writes), and every `UserDefaults` write is kept without `synchronize()` (flushed after every
/// committed page and batch, every probe and before any exit), so change tracking kept there survives
/// `kill -9` after a commit. Through real processes: `Examples/device-fidelity-provider` (Swift 5 mode).
@Suite("Porting: the extension ends as on a device (no teardown deinits, UserDefaults kept without synchronize)")
struct DeviceFidelityTests {
    struct Entry: Codable, Equatable {
        var identifier: String
        var name: String
    }

    /// The app's own writer: `book.json` in the App Group, as the app saves it.
    private func writeBook(_ identifiers: [String], in group: TemporaryAppGroup) throws {
        let entries = identifiers.map { Entry(identifier: $0, name: $0.capitalized) }
        try JSONEncoder().encode(entries).write(to: URL(fileURLWithPath: group.path + "/book.json"), options: .atomic)
    }

    private func book(_ group: TemporaryAppGroup) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: group.path + "/book.json"))
        return try JSONDecoder().decode([Entry].self, from: data).map(\.identifier)
    }

    /// `contacts-host` with the provider's logging on (the temporary App Group's environment turns it off).
    @discardableResult
    private func host(
        _ arguments: [String], in group: TemporaryAppGroup, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> ProcessResult
    {
        var environment = group.environment
        environment["OSLOG_DISABLE"] = nil
        let result = try HostRunner.process.run(arguments, environment: environment)
        #expect(result.exitCode == 0, "contacts-host \(arguments) → \(result)", sourceLocation: sourceLocation)
        return result
    }

    private func systemIdentifiers(_ group: TemporaryAppGroup) throws -> [String] {
        try jsonArray(try host(["system", "list", "--json"], in: group)).compactMap { $0["identifier"] as? String }
            .sorted()
    }

    @Test("kill -9 after a commit keeps the change tracking; invalidate does not write the model's stale list back")
    func endsAsOnADevice() throws {
        try withTemporaryAppGroup { group in
            try writeBook(["ada", "alan", "grace"], in: group)
            try host(["enable", "--extension", BuiltProducts.path("device-fidelity-provider")], in: group)
            try host(["signal", "--wait"], in: group)
            #expect(try systemIdentifiers(group) == ["ada", "alan", "grace"])

            // Killed after the commit: what the enumerator kept in UserDefaults (never synchronized) stays.
            let killed = try #require(group.providerPID(), "no provider is running after the sync")
            #expect(kill(killed, SIGKILL) == 0)
            #expect(ProcessExit.waitUntilGone(killed))
            try writeBook(["ada", "alan"], in: group)  // the app deletes grace
            try host(["signal", "--wait"], in: group)  // a new provider process
            #expect(try systemIdentifiers(group) == ["ada", "alan"], "the deletion must arrive after the restart")

            // The running extension's model was loaded with [ada, alan]; the app now deletes alan. The
            // extension's end (invalidate, as the system ends it) must not write the model's list back.
            try writeBook(["ada"], in: group)
            try host(["invalidate"], in: group)
            #expect(try book(group) == ["ada"], "the extension's teardown undid the app's write")
            try host(["signal", "--wait"], in: group)
            #expect(try systemIdentifiers(group) == ["ada"])

            // The same at the idle exit and at SIGTERM: stop it both ways, the app's file stays the app's.
            try writeBook(["ada", "zoe"], in: group)
            try host(["signal", "--wait"], in: group)
            let running = try #require(group.providerPID())
            try writeBook(["zoe"], in: group)
            #expect(kill(running, SIGTERM) == 0)
            #expect(ProcessExit.waitUntilGone(running))
            #expect(try book(group) == ["zoe"], "SIGTERM's exit undid the app's write")
            try host(["signal", "--wait"], in: group)
            #expect(try systemIdentifiers(group) == ["zoe"])
            // `import os`: os_log's printf format (annotations dropped) and Logger, in the provider's log.
            let log = try String(contentsOfFile: group.path + "/run/defaultDomain/provider.log", encoding: .utf8)
            #expect(
                log.contains(
                    "[com.example.device-fidelity-provider:enumerator] info: content: 3 contacts from book.json"),
                "\(log)")
            #expect(
                log.contains("[com.example.device-fidelity-provider:sync] info: changes: 0 updated, 1 deleted"),
                "\(log)")
            try host(["disable"], in: group)
        }
    }
}
