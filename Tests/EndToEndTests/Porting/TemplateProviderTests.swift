import Foundation
import Glibc
import TestSupport
import Testing

/// The Xcode-template-shaped provider (`Examples/template-provider`: `import ExtensionFoundation`,
/// the seed's `ObservableObject` model verbatim, its sync position in App Group `UserDefaults`),
/// built in Swift 6 and Swift 5 mode, syncs end to end and survives being killed between syncs.
@Suite("End to end: a provider ported from an Xcode template")
struct TemplateProviderTests {
    /// The seed app's `ContactItems.json` entry.
    struct ContactItemJSON: Codable {
        var identifier: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var emailAddress: String?
    }

    static let suite = "group.nl.wesleydegroot.contactproviderdemo"

    private func writeAppDatabase(_ items: [ContactItemJSON], in group: TemporaryAppGroup) throws {
        try JSONEncoder().encode(items).write(to: URL(fileURLWithPath: group.path + "/ContactItems.json"))
    }

    /// The system store as identifier → (given, family, phones, emails).
    private func systemContacts(_ group: TemporaryAppGroup) throws -> [String: [String: Any]] {
        let result = try host(["system", "list", "--json"], in: group)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var byID: [String: [String: Any]] = [:]
        for contact in array { byID[try #require(contact["identifier"] as? String)] = contact }
        return byID
    }

    private func expectSystem(
        _ group: TemporaryAppGroup, equals items: [ContactItemJSON],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let system = try systemContacts(group)
        #expect(Set(system.keys) == Set(items.map(\.identifier)), sourceLocation: sourceLocation)
        for item in items {
            let contact = try #require(system[item.identifier], sourceLocation: sourceLocation)
            #expect(contact["givenName"] as? String == item.firstName, sourceLocation: sourceLocation)
            #expect(contact["familyName"] as? String == item.lastName, sourceLocation: sourceLocation)
            let phones = (contact["phoneNumbers"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(phones == (item.phoneNumber.map { [$0] } ?? []), sourceLocation: sourceLocation)
            let labels = (contact["phoneNumbers"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
            #expect(labels == (item.phoneNumber == nil ? [] : ["Mobile"]), sourceLocation: sourceLocation)
            let emails = (contact["emailAddresses"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(emails == (item.emailAddress.map { [$0] } ?? []), sourceLocation: sourceLocation)
        }
    }

    @Test(
        "syncs, is killed (SIGKILL), relaunches and still reports the deletion it learned from App Group UserDefaults",
        arguments: ["template-provider", "template-provider-swift5"])
    func killedBetweenSyncs(executable: String) throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path(executable)], in: group)
            var items = [
                ContactItemJSON(
                    identifier: "a", firstName: "Ada", lastName: "Lovelace", phoneNumber: "+44 20 7946 0000"),
                ContactItemJSON(identifier: "b", firstName: "Bob", lastName: "Smith", emailAddress: "bob@example.com"),
                ContactItemJSON(identifier: "c", firstName: "Cleo", lastName: "Doe"),
            ]
            try writeAppDatabase(items, in: group)
            let first = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(first["enumeration"] as? String == "content")
            #expect(first["systemCount"] as? Int == 3)
            try expectSystem(group, equals: items)

            // The provider's position is in the App Group, where iOS keeps a group suite.
            let plist = group.path + "/Library/Preferences/\(Self.suite).plist"
            let stored =
                try PropertyListSerialization.propertyList(
                    from: try Data(contentsOf: URL(fileURLWithPath: plist)), format: nil) as? [String: Any]
            // What the system holds at each anchor it may ask from (offset 0 after the content).
            let history = try #require(
                stored?["sentAtAnchor"] as? [String: [String: String]], "no sync position in \(plist)")
            #expect(Set(history["0"].map { Array($0.keys) } ?? []) == ["a", "b", "c"])

            // Killed between syncs; meanwhile the app deletes one contact, changes one, adds one.
            let pid = try #require(group.providerPID())
            kill(pid, SIGKILL)
            #expect(ProcessExit.waitUntilGone(pid), "process \(pid) did not exit after SIGKILL")
            items.remove(at: 1)
            items[0].lastName = "King"
            items.append(
                ContactItemJSON(identifier: "d", firstName: "Dan", lastName: "Brown", phoneNumber: "+1 555 0100"))
            try writeAppDatabase(items, in: group)

            let second = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(second["enumeration"] as? String == "changes")
            #expect(second["updated"] as? Int == 2)
            #expect(second["deleted"] as? Int == 1, "the relaunched provider must remember it had sent 'b'")
            #expect(group.providerPID() != pid)
            try expectSystem(group, equals: items)

            let idle = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(idle["updated"] as? Int == 0)
            #expect(idle["deleted"] as? Int == 0)
            try stopProvider(group)
        }
    }

    /// A provider started by hand (in a terminal, under gdb or lldb) keeps its own process: its suite is
    /// moved into the App Group in place (PreferencesLocation), never by re-executing itself, which a
    /// debugger stops at or loses (issue 24). Both shells: one with its own XDG_CONFIG_HOME, one without.
    @Test(
        "a provider started by hand puts its UserDefaults suite in the App Group without re-executing itself",
        arguments: [true, false])
    func startedByHand(shellSetsConfigHome: Bool) throws {
        try withTemporaryAppGroup { group in
            try host(["enable", "--extension", BuiltProducts.path("template-provider")], in: group)
            try writeAppDatabase([ContactItemJSON(identifier: "a", firstName: "Ada", lastName: "L")], in: group)
            var environment = group.environment
            environment["XDG_CONFIG_HOME"] = shellSetsConfigHome ? group.path + "/elsewhere" : nil
            environment["HOME"] = group.path + "/home"
            let (process, lines) = try ProviderProcessTests.startProvider(
                group, ["--foreground"], executable: "template-provider", environment: environment)
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            #expect(lines.next(containing: "serving domain") != nil)
            let report = try jsonObject(try host(["signal", "--wait", "--json"], in: group))
            #expect(report["systemCount"] as? Int == 1)
            #expect(FileManager.default.fileExists(atPath: group.path + "/Library/Preferences/\(Self.suite).plist"))
            #expect(!FileManager.default.fileExists(atPath: group.path + "/elsewhere/\(Self.suite).plist"))
            #expect(!FileManager.default.fileExists(atPath: group.path + "/home/.config/\(Self.suite).plist"))
            #expect(group.providerPID() == process.processIdentifier)
            // The environment the kernel recorded at the last exec: a re-executed provider's carries the marker.
            let startEnvironment = try String(
                contentsOfFile: "/proc/\(process.processIdentifier)/environ", encoding: .utf8)
            #expect(
                !startEnvironment.contains("CONTACT_PROVIDER_PREFERENCES_REEXEC"), "the provider re-executed itself")
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }
}
