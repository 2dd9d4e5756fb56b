import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// `CNSaveRequest.transactionAuthor` and `CNChangeHistoryFetchRequest.excludedTransactionAuthors`
/// in process: a save's author is recorded with its changes, and a fetch excluding it leaves them
/// out, coalescing what is left as the DocC of `excludedTransactionAuthors` says.
@Suite("Transaction authors: a fetch excluding an author leaves that author's saves out, contacts and groups")
struct TransactionAuthorTests {
    private func fetch(_ store: CNContactStore, from token: Data?, excluding authors: [String]?, groups: Bool = false)
        throws -> [String]
    {
        let request = CNChangeHistoryFetchRequest()
        request.startingToken = token
        request.excludedTransactionAuthors = authors
        request.includeGroupChanges = groups
        let result = try ContactsChangeHistory.enumerator(for: request, in: store)
        let recorder = ChangeHistoryRecorder(containers: false)
        recorder.record(result.value)
        return recorder.lines
    }

    private func save(_ store: CNContactStore, as author: String?, _ build: (CNSaveRequest) -> Void) throws {
        let request = CNSaveRequest()
        request.transactionAuthor = author
        build(request)
        try store.execute(request)
    }

    private func contact(_ given: String) -> CNMutableContact {
        let contact = CNMutableContact()
        contact.givenName = given
        return contact
    }

    private func renamed(_ contact: CNContact, _ given: String) -> CNMutableContact {
        let copy = contact.mutableCopy() as! CNMutableContact
        copy.givenName = given
        return copy
    }

    @Test("a save request has no author until one is given; the author is recorded in the save's journal line")
    func authorIsRecorded() throws {
        #expect(CNSaveRequest().transactionAuthor == nil)
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            try save(store, as: "App") { $0.add(contact("Ada"), toContainerWithIdentifier: nil) }
            try save(store, as: nil) { $0.add(contact("Alan"), toContainerWithIdentifier: nil) }
            let journal = try String(
                contentsOfFile: DeviceContacts(appGroup: group.appGroup).contactsDirectory + "/journal.jsonl",
                encoding: .utf8
            ).split(separator: "\n")
            #expect(journal.count == 3)
            #expect(journal[1].contains(#""author":"App""#) && journal[1].contains(#""givenName":"Ada""#))
            #expect(!journal[2].contains("author"))
        }
    }

    @Test("only the saves of authors not excluded are events; no exclusion, or nil, lists every save")
    func excludedSavesAreLeftOut() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let start = try #require(store.currentHistoryToken)
            try save(store, as: "App") { $0.add(contact("Ada"), toContainerWithIdentifier: nil) }
            try save(store, as: "Widget") { $0.add(contact("Grace"), toContainerWithIdentifier: nil) }
            try save(store, as: nil) { $0.add(contact("Linus"), toContainerWithIdentifier: nil) }
            #expect(try fetch(store, from: start, excluding: ["App"]) == ["add Grace", "add Linus"])
            #expect(try fetch(store, from: start, excluding: ["App", "Widget"]) == ["add Linus"])
            #expect(try fetch(store, from: start, excluding: ["app"]) == ["add Ada", "add Grace", "add Linus"])
            #expect(try fetch(store, from: start, excluding: []) == ["add Ada", "add Grace", "add Linus"])
            #expect(try fetch(store, from: start, excluding: nil) == ["add Ada", "add Grace", "add Linus"])
            // Without a token everything is listed, whoever saved it.
            #expect(try fetch(store, from: nil, excluding: ["App"]) == ["drop", "add Ada", "add Grace", "add Linus"])
        }
    }

    @Test(
        "a contact also changed by another author is one event from before that author's first change: update, add or none"
    )
    func coalescingAroundExcludedSaves() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let known = contact("Known")
            try save(store, as: nil) { $0.add(known, toContainerWithIdentifier: nil) }
            let start = try #require(store.currentHistoryToken)

            let mine = contact("Mine")
            try save(store, as: "App") { $0.add(mine, toContainerWithIdentifier: nil) }
            try save(store, as: "Widget") { $0.update(renamed(mine, "Mine, edited by the widget")) }
            let theirs = contact("Theirs")
            try save(store, as: "Widget") { $0.add(theirs, toContainerWithIdentifier: nil) }
            try save(store, as: "App") { $0.update(renamed(theirs, "Theirs, edited by the app")) }
            let fleeting = contact("Fleeting")
            try save(store, as: "Widget") { $0.add(fleeting, toContainerWithIdentifier: nil) }
            try save(store, as: "App") { $0.delete(fleeting) }
            try save(store, as: "App") { $0.update(renamed(known, "Known, edited by the app")) }
            try save(store, as: "Widget") { $0.delete(mine) }

            #expect(
                try fetch(store, from: start, excluding: ["App"]) == [
                    "add Theirs, edited by the app", "delete \(mine.identifier)",
                ])
            // The widget's view: the app edited what the widget added, and deleted what the widget added.
            #expect(
                try fetch(store, from: start, excluding: ["Widget"]) == [
                    "update Theirs, edited by the app", "update Known, edited by the app",
                    "delete \(fleeting.identifier)",
                ])
            #expect(
                try fetch(store, from: start, excluding: nil) == [
                    "add Theirs, edited by the app", "update Known, edited by the app",
                ])
        }
    }

    @Test("an excluded author's group changes are left out too; another author's change to its group is an event")
    func groupChanges() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let ada = contact("Ada")
            let alan = contact("Alan")
            try save(store, as: nil) {
                $0.add(ada, toContainerWithIdentifier: nil)
                $0.add(alan, toContainerWithIdentifier: nil)
            }
            let start = try #require(store.currentHistoryToken)
            let friends = CNMutableGroup()
            friends.name = "Friends"
            try save(store, as: "App") {
                $0.add(friends, toContainerWithIdentifier: nil)
                $0.addMember(ada, to: friends)
            }
            let family = CNMutableGroup()
            family.name = "Family"
            try save(store, as: "Widget") {
                $0.add(family, toContainerWithIdentifier: nil)
                $0.addMember(alan, to: friends)
            }
            friends.name = "Pals"
            try save(store, as: "Widget") { $0.update(friends) }

            #expect(
                try fetch(store, from: start, excluding: ["App"], groups: true) == [
                    "add group Family", "update group Pals", "member Alan + Pals",
                ])
            #expect(
                try fetch(store, from: start, excluding: ["Widget"], groups: true) == [
                    "add group Pals", "member Ada + Pals",
                ])
            #expect(
                try fetch(store, from: start, excluding: nil, groups: true) == [
                    "add group Pals", "add group Family", "member Ada + Pals", "member Alan + Pals",
                ])

            try save(store, as: "App") { $0.removeMember(ada, from: friends) }
            try save(store, as: "App") { $0.delete(family) }
            #expect(
                try fetch(store, from: start, excluding: ["App"], groups: true) == [
                    "update group Pals", "member Alan + Pals",
                ])
        }
    }

    @Test("the first saves of a store that is new since the token are left out too when their author is excluded")
    func newStoreSinceToken() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let start = try #require(store.currentHistoryToken)  // the device holds nothing yet
            try save(store, as: "App") { $0.add(contact("Ada"), toContainerWithIdentifier: nil) }
            try save(store, as: "Widget") { $0.add(contact("Grace"), toContainerWithIdentifier: nil) }
            #expect(try fetch(store, from: start, excluding: ["App"]) == ["add Grace"])
        }
    }
}
