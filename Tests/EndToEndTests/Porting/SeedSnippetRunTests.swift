import Foundation
import TestSupport
import Testing

/// Issue 41: the seed documents' snippets, compiled into the `seed-snippets` app (Tests/Fixtures/
/// SeedSnippets, its `Runner` calling them), each run in its own process against a simulated device
/// that `contacts-host` set up, the way an app runs them on iOS: the user's own contacts, a provider's
/// read-only contacts, authorization, groups, vCards, change notifications and the change history.
@Suite("Porting: the seed documents' snippets run against the simulated device")
struct SeedSnippetRunTests {
    /// The runner as an app of `group`: its App Group, its user defaults (where seed 001 keeps its
    /// token) in the App Group's home, and `extensionPath` as its Contact Provider extension.
    private static func environment(_ group: TemporaryAppGroup, extensionPath: String? = nil) -> [String: String] {
        var environment = group.environment
        environment["HOME"] = group.path + "/home"
        environment["XDG_CONFIG_HOME"] = group.path + "/home/.config"
        if let extensionPath { environment["CONTACT_PROVIDER_EXTENSION"] = extensionPath }
        return environment
    }

    /// Runs a scenario to its end; requires success and returns its lines.
    @discardableResult
    private func run(
        _ arguments: [String], in group: TemporaryAppGroup, extensionPath: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let result = try ProcessRunner.run(
            BuiltProducts.path("seed-snippets"), arguments,
            environment: Self.environment(group, extensionPath: extensionPath))
        #expect(result.exitCode == 0, "seed-snippets \(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs a scenario that says `ready` half way: `between` runs then (another process changing the
    /// device), and the scenario's lines come back once it ends.
    private func run(
        _ arguments: [String], in group: TemporaryAppGroup, between: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("seed-snippets"))
        process.arguments = arguments
        process.environment = Self.environment(group)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try ProcessRunner.runUnblocked(process)
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        // The scenario bounds its own waits and exits, so reading to its `ready` (or its end) ends.
        var lines: [String] = []
        var pending = Data()
        var betweenRan = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                lines.append(line)
                if line == "ready", !betweenRan {
                    betweenRan = true
                    try between()
                }
            }
        }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "seed-snippets \(arguments): \(stderr)", sourceLocation: sourceLocation)
        #expect(betweenRan, "seed-snippets \(arguments) never said ready: \(lines)", sourceLocation: sourceLocation)
        return lines
    }

    /// Seed 001's output without its actor's own diagnostics: it prints "insertion failure" when a
    /// contact it holds arrives again (each CNContactStoreDidChange starts a fetch, and one save may
    /// post more than one, as on iOS, so two fetches from the same token can overlap) and "deletion
    /// failure" for a contact it never held.
    static func withoutActorDiagnostics(_ lines: [String]) -> [String] {
        lines.filter { $0 != "insertion failure" && $0 != "deletion failure" }
    }

    /// The device's own contacts every scene starts from.
    private func addOwnContacts(in group: TemporaryAppGroup) throws -> [String: String] {
        var identifiers: [String: String] = [:]
        identifiers["Grace"] = try HostRunner.process.succeed(
            [
                "device", "add", "--given-name", "Grace", "--family-name", "Hopper", "--phone",
                "mobile=+1 (555) 010-0001",
                "--email", "work=grace@example.com", "--birthday", "1906-12-09",
            ], in: group)
        identifiers["Ada"] = try HostRunner.process.succeed(
            [
                "device", "add", "--given-name", "Ada", "--family-name", "Lovelace", "--phone", "home=020 7946 0018",
                "--birthday", "1815-12-10",
            ], in: group)
        identifiers["Linus"] = try HostRunner.process.succeed(
            ["device", "add", "--given-name", "Linus", "--family-name", "Torvalds", "--birthday", "1969-12-28"],
            in: group)
        return identifiers
    }

    @Test("seed 000: ContactUtility asks for access (the user allows) and lists a bean per phone number")
    func seed000ContactUtility() throws {
        try withTemporaryAppGroup { group in
            _ = try addOwnContacts(in: group)
            try HostRunner.process.succeed(
                ["device", "authorization", "not-determined", "--answer", "allow"], in: group)
            let lines = try run(["000-contact-utility"], in: group)
            #expect(
                lines == [
                    // getContact() prints each contact's first number (the user's sort order: given name).
                    "<CNPhoneNumber: stringValue=+1 (555) 010-0001>", "<CNPhoneNumber: stringValue=020 7946 0018>",
                    "no",
                    "status 3",  // CNAuthorizationStatus.authorized after requestAccess
                    "bean Ada Lovelace 02079460018 ", "bean Grace Hopper +15550100001 grace@example.com",
                ])
            #expect(try HostRunner.process.succeed(["device", "authorization"], in: group) == "authorized")
        }
    }

    @Test(
        "seed 001: the history fetcher drops everything at first launch, then lists exactly what other processes changed, from its saved token"
    )
    func seed001History() throws {
        try withTemporaryAppGroup { group in
            // First launch: no token, so drop-everything (on a device with nothing yet, see the
            // runner); then the seed's own CNContactStoreDidChange observer fetches another process's add.
            let first = try run(["001-history", "--drop", "0", "1"], in: group) {
                try HostRunner.process.succeed(
                    ["device", "add", "--given-name", "Ada", "--family-name", "Lovelace"], in: group)
            }
            #expect(Self.withoutActorDiagnostics(first) == ["rows ", "ready", "rows Ada Lovelace"])
            // A new launch starts from the token the seed saved in UserDefaults: only the changes since.
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Grace", "--family-name", "Hopper"], in: group)
            let linus = try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Linus", "--family-name", "Torvalds"], in: group)
            #expect(try run(["001-history", "2"], in: group) == ["rows Grace Hopper, Linus Torvalds"])
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Barbara", "--family-name", "Liskov"], in: group)
            try HostRunner.process.succeed(["device", "delete", linus], in: group)
            // (This process never held Linus: the seed's actor says "deletion failure".)
            #expect(Self.withoutActorDiagnostics(try run(["001-history", "1"], in: group)) == ["rows Barbara Liskov"])
        }
    }

    @Test("seed 001: a provider's sync arrives as additions; its reset makes the fetcher drop everything")
    func seed001DropEverything() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            #expect(try run(["001-history", "--drop", "0"], in: group) == ["rows "])
            try HostRunner.process.succeed(
                ["add", "--id", "alan", "--given-name", "Alan", "--family-name", "Turing"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            // From the saved token: the provider's contact as an addition; then, once the provider's
            // store is reset, drop-everything (nothing is left to add back).
            let lines = try run(["001-history", "1", "0"], in: group) {
                try HostRunner.process.succeed(["system", "reset"], in: group)
            }
            #expect(Self.withoutActorDiagnostics(lines) == ["rows Alan Turing", "ready", "rows "])
        }
    }

    @Test("seed 003: the app enables its provider (the seed demo) and signals it; the device shows its contacts")
    func seed003Manager() throws {
        try withTemporaryAppGroup { group in
            let provider = BuiltProducts.path("seed-demo-provider")
            // The app's store is the seed demo's ContactItems.json; the domain starts disabled.
            try HostRunner.process.succeed(["enable", "--extension", provider, "--backend", "seed-json"], in: group)
            try HostRunner.process.succeed(["generate", "4", "--seed", "7"], in: group)
            try HostRunner.process.succeed(["disable"], in: group)
            let appNames = try CLIHarness.contacts(try HostRunner.process.succeed(["list", "--json"], in: group))
                .map { "\($0.givenName) \($0.familyName)".trimmingCharacters(in: .whitespaces) }.sorted()
            #expect(appNames.count == 4)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            let lines = try run(["003-manager", "4"], in: group, extensionPath: provider)
            #expect(lines == ["enabled and signalled", "provided \(appNames.joined(separator: ", "))"])
        }
    }

    @Test("seed 004: ContactManager asks, loads by given name and formats; limited access shows only the chosen")
    func seed004ContactManager() throws {
        try withTemporaryAppGroup { group in
            let own = try addOwnContacts(in: group)
            try HostRunner.process.succeed(["device", "authorization", "not-determined"], in: group)
            #expect(
                try run(["004-contact-manager"], in: group) == [
                    "status 0", "can access true limited false", "loaded Ada Lovelace, Grace Hopper, Linus Torvalds",
                    "formatted Ada Lovelace", "formatted Grace Hopper", "formatted Linus Torvalds",
                ])
            try HostRunner.process.succeed(
                ["device", "authorization", "limited", "--grant", try #require(own["Linus"])], in: group)
            #expect(
                try run(["004-contact-manager"], in: group) == [
                    "status 4", "can access true limited true", "loaded Linus Torvalds", "formatted Linus Torvalds",
                ])
            try HostRunner.process.succeed(["device", "authorization", "denied"], in: group)
            let denied = try run(["004-contact-manager"], in: group)
            #expect(denied.first == "status 2")
            #expect(denied.contains("can access false limited false"))
            #expect(denied.contains { $0.hasPrefix("requestAccess threw 100 ") }, "\(denied)")
        }
    }

    @Test("seed 004: birthdays by month, predicates, groups and membership, vCard export, read and import")
    func seed004Patterns() throws {
        try withTemporaryAppGroup { group in
            _ = try addOwnContacts(in: group)
            #expect(try run(["004-birthdays", "12"], in: group) == ["born Ada Lovelace, Grace Hopper, Linus Torvalds"])
            try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Alan", "--birthday", "1912-06-23"], in: group)
            #expect(try run(["004-birthdays", "6"], in: group) == ["born Alan"])
            #expect(try run(["004-predicates"], in: group) == ["predicates built"])
            #expect(
                try run(["004-groups", "Pioneers"], in: group) == [
                    "groups Pioneers", "members Ada Lovelace", "members after removal ",
                ])
            #expect(try HostRunner.process.succeed(["device", "groups"], in: group).contains("Pioneers"))
            let file = group.path + "/exported.vcf"
            #expect(
                try run(["004-vcard", file], in: group) == [
                    "read back Ada Lovelace, Alan, Grace Hopper, Linus Torvalds", "imported Vera Card",
                ])
            let listed = try HostRunner.process.succeed(["device", "list"], in: group)
            #expect(listed.contains("Vera Card"), "\(listed)")
        }
    }

    @Test("seed 004: observeChanges' handler runs when another process changes the device")
    func seed004ObserveChanges() throws {
        try withTemporaryAppGroup { group in
            let lines = try run(["004-observe"], in: group) {
                try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            }
            #expect(lines == ["ready", "changed"])
        }
    }
}
