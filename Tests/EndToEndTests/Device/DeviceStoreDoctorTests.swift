import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// `contacts-host doctor` looks inside `<App Group>/device` (issue 41): the device's own contacts and
/// groups, which apps write through CNContactStore, are checked line by line as the app database is,
/// and `--repair` rebuilds them from every readable line; an unreadable access setting is named and
/// moved aside. Everything through the built `contacts-host`.
@Suite("doctor checks and repairs the device's own contacts store and its access setting")
struct DeviceStoreDoctorTests {
    @Test("a damaged line of device/contacts is named with its file and line; --repair keeps every readable change")
    func damagedDeviceStore() throws {
        try withTemporaryAppGroup { group in
            let grace = try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["device", "add", "--id", "ada", "--given-name", "Ada"], in: group)
            try HostRunner.process.succeed(
                ["device", "group", "add", "--id", "friends", "--member", grace, "Friends"], in: group)
            let store = CNContactStore(appGroup: group.appGroup)
            let token = try #require(store.currentHistoryToken)
            #expect(try HostRunner.process.succeed(["doctor"], in: group).contains("no problems"))

            // Ada's line (the journal's third: header, Grace, Ada, the group) is damaged in place.
            let journal = DeviceContacts(appGroup: group.appGroup).store.journalPath
            var lines = try String(contentsOfFile: journal, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[2].contains(#""identifier":"ada""#))
            lines[2] = #"{"seq":2,"upsert":[{"identifier":"ada","birthday":"never"}]}"#
            try lines.joined(separator: "\n").write(toFile: journal, atomically: false, encoding: .utf8)

            let refused = try HostRunner.process.run(["device", "list"], in: group)
            #expect(refused.exitCode == 1 && refused.stderr.contains("device/contacts/journal.jsonl:3"), "\(refused)")
            let checked = try HostRunner.process.run(["doctor"], in: group)
            #expect(checked.exitCode == 1, "\(checked)")
            #expect(checked.stdout.contains(journal + ":3: "), "\(checked)")
            #expect(checked.stderr.contains("doctor --repair"), "\(checked)")
            let json = try CLIHarness.json(try HostRunner.process.run(["doctor", "--json"], in: group).stdout)
            let problems = try #require((json as? [String: Any])?["problems"] as? [[String: Any]])
            #expect(problems.contains { $0["path"] as? String == journal && $0["line"] as? Int == 3 })

            let repaired = try HostRunner.process.succeed(["doctor", "--repair"], in: group)
            #expect(repaired.contains("device/contacts: rebuilt with 1 contact and 1 group"), "\(repaired)")
            #expect(repaired.contains("lost \(journal):3"), "\(repaired)")
            #expect(repaired.contains("moved aside: \(journal).damaged-"), "\(repaired)")
            #expect(repaired.contains("repaired; no problems remain"), "\(repaired)")
            #expect(try HostRunner.process.succeed(["doctor"], in: group).contains("no problems"))
            let listed = try CLIHarness.contacts(
                try HostRunner.process.succeed(["device", "list", "--json"], in: group))
            #expect(listed.map(\.identifier) == [grace])
            #expect(try HostRunner.process.succeed(["device", "groups"], in: group) == "friends\tFriends\t\(grace)")
            #expect(
                try FileManager.default.contentsOfDirectory(
                    atPath: DeviceContacts(appGroup: group.appGroup).contactsDirectory
                )
                .contains { $0.hasPrefix("journal.jsonl.damaged-") })

            // A rebuilt store is a new generation: an app's history from before starts over.
            let request = CNChangeHistoryFetchRequest()
            request.startingToken = token
            let events = try ContactsChangeHistory.enumerator(for: request, in: store).value.allObjects
            #expect(events.first is CNChangeHistoryDropEverythingEvent)
            #expect(events.count == 2)
        }
    }

    @Test("an unreadable device/authorization.json is named; --repair moves it aside and access reads as authorized")
    func damagedAuthorizationSetting() throws {
        try withTemporaryAppGroup { group in
            try HostRunner.process.succeed(["device", "authorization", "denied"], in: group)
            let path = DeviceAuthorization.path(in: group.appGroup)
            try Data("{\"status\":".utf8).write(to: URL(fileURLWithPath: path))
            let checked = try HostRunner.process.run(["doctor"], in: group)
            #expect(checked.exitCode == 1 && checked.stdout.contains(path + ":1: "), "\(checked)")
            let repaired = try HostRunner.process.succeed(["doctor", "--repair"], in: group)
            #expect(repaired.contains("moved aside: \(path).damaged-"), "\(repaired)")
            #expect(try HostRunner.process.succeed(["device", "authorization"], in: group) == "authorized")
        }
    }
}
