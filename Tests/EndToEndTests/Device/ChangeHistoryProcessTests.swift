import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// The change history through real processes: what `contacts-host device` (another process), the
/// app's own saves and a provider's syncs (the real host and provider) change is exactly what the
/// history from a token lists; a reset or a disable makes it drop everything.
@Suite(
    "The change history across processes: exactly what changed since a token, drop-everything after reset and disable")
struct ChangeHistoryProcessTests {
    /// The events since `token` as lines, and the token to ask from next.
    private func fetch(
        _ store: CNContactStore, from token: Data?, groups: Bool = false, excluding authors: [String]? = nil
    ) throws -> (lines: [String], token: Data) {
        let request = CNChangeHistoryFetchRequest()
        request.startingToken = token
        request.includeGroupChanges = groups
        request.excludedTransactionAuthors = authors
        let result = try ContactsChangeHistory.enumerator(for: request, in: store)
        let recorder = ChangeHistoryRecorder(containers: true)
        recorder.record(result.value)
        return (recorder.lines, result.currentHistoryToken)
    }

    @Test(
        "another process's adds and deletes, the app's own add and update, group changes: exactly those since the token"
    )
    func deviceChangesSinceToken() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let grace = try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            let start = try fetch(store, from: nil, groups: true)
            #expect(start.lines == ["drop", "add Grace CNContainer.local"])

            let linus = try HostRunner.process.succeed(["device", "add", "--given-name", "Linus"], in: group)
            try HostRunner.process.succeed(["device", "delete", linus], in: group)
            let ada = CNMutableContact()
            ada.givenName = "Ada"
            let renamed =
                try store.unifiedContact(withIdentifier: grace, keysToFetch: []).mutableCopy() as! CNMutableContact
            renamed.givenName = "Grace B."
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            save.update(renamed)
            try store.execute(save)
            try HostRunner.process.succeed(
                ["device", "group", "add", "--id", "friends", "--member", grace, "Friends"], in: group)
            let changed = try fetch(store, from: start.token, groups: true)
            #expect(
                changed.lines == [
                    "add group Friends", "add Ada CNContainer.local", "update Grace B.", "member Grace B. + Friends",
                ])
            #expect(try fetch(store, from: start.token).lines == ["add Ada CNContainer.local", "update Grace B."])

            try HostRunner.process.succeed(
                ["device", "group", "members", "--add", ada.identifier, "--remove", grace, "friends"], in: group)
            try HostRunner.process.succeed(["device", "delete", grace], in: group)
            let later = try fetch(store, from: changed.token, groups: true)
            #expect(later.lines == ["delete \(grace)", "member Ada + Friends"])
            try HostRunner.process.succeed(["device", "group", "delete", "friends"], in: group)
            #expect(try fetch(store, from: later.token, groups: true).lines == ["delete group friends"])
            #expect(try fetch(store, from: later.token).lines.isEmpty)
        }
    }

    @Test(
        "a provider's synced adds, updates and deletes since the token; drop-everything after reset and after disable")
    func providerSyncsResetAndDisable() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(["add", "--id", "alan", "--given-name", "Alan"], in: group)
            try HostRunner.process.succeed(["add", "--id", "bob", "--given-name", "Bob"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let provided = try #require(try store.containers(matching: nil).last?.identifier)
            #expect(provided.hasPrefix("ContactProvider."))
            let start = try fetch(store, from: nil)
            #expect(
                Set(start.lines) == [
                    "drop", "add Grace CNContainer.local", "add Alan \(provided)", "add Bob \(provided)",
                ])

            try HostRunner.process.succeed(["add", "--id", "carol", "--given-name", "Carol"], in: group)
            try HostRunner.process.succeed(["update", "--given-name", "Alan T.", "alan"], in: group)
            try HostRunner.process.succeed(["delete", "bob"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let synced = try fetch(store, from: start.token)
            #expect(Set(synced.lines) == ["add Carol \(provided)", "update Alan T.", "delete \(provided)/bob"])
            #expect(synced.lines.count == 3)
            #expect(try fetch(store, from: synced.token).lines.isEmpty)

            try HostRunner.process.succeed(["reset"], in: group)
            let afterReset = try fetch(store, from: synced.token)
            #expect(afterReset.lines == ["drop", "add Grace CNContainer.local"])

            try HostRunner.process.succeed(["add", "--id", "dora", "--given-name", "Dora"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let resynced = try fetch(store, from: afterReset.token)
            #expect(resynced.lines.contains("add Dora \(provided)"))
            #expect(!resynced.lines.contains { $0.hasPrefix("update") || $0.hasPrefix("delete") })

            // `disable` may warn on stderr about a provider still on its way out: only its exit status counts here.
            #expect(try HostRunner.process.run(["disable"], in: group).exitCode == 0)
            #expect(try fetch(store, from: resynced.token).lines == ["drop", "add Grace CNContainer.local"])
        }
    }

    @Test(
        "the app saves as \"App\", another process as \"Widget\", a provider syncs: excluding \"App\" lists the others' events only"
    )
    func excludedTransactionAuthors() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            let start = try fetch(store, from: nil).token

            let ada = CNMutableContact()
            ada.givenName = "Ada"
            let save = CNSaveRequest()
            save.transactionAuthor = "App"
            save.add(ada, toContainerWithIdentifier: nil)
            try store.execute(save)
            let grace = try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Grace", "--transaction-author", "Widget"], in: group)
            try HostRunner.process.succeed(
                [
                    "device", "group", "add", "--id", "team", "--member", ada.identifier, "--transaction-author", "App",
                    "Team",
                ], in: group)
            try HostRunner.process.succeed(["device", "add", "--given-name", "Linus"], in: group)
            // The app edits what the widget added: still the widget's addition to the app.
            let edited =
                try store.unifiedContact(withIdentifier: grace, keysToFetch: []).mutableCopy() as! CNMutableContact
            edited.familyName = "Hopper"
            let update = CNSaveRequest()
            update.transactionAuthor = "App"
            update.update(edited)
            try store.execute(update)
            try HostRunner.process.succeed(["add", "--id", "alan", "--given-name", "Alan"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            let provided = try #require(try store.containers(matching: nil).last?.identifier)

            let other = try fetch(store, from: start, groups: true, excluding: ["App"])
            #expect(
                Set(other.lines) == [
                    "add Grace CNContainer.local", "add Linus CNContainer.local", "add Alan \(provided)",
                ])
            #expect(other.lines.count == 3)
            // Syncs have no author: excluding every author leaves the provider's contacts and the unnamed save.
            let unnamed = try fetch(store, from: start, groups: true, excluding: ["App", "Widget"])
            #expect(Set(unnamed.lines) == ["add Linus CNContainer.local", "add Alan \(provided)"])
            let everything = try fetch(store, from: start, groups: true)
            #expect(
                Set(everything.lines) == [
                    "add group Team", "add Ada CNContainer.local", "add Grace CNContainer.local",
                    "add Linus CNContainer.local", "add Alan \(provided)", "member Ada + Team",
                ])
            #expect(other.token == everything.token)
        }
    }
}
