import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// The change history in process: events from a token for the device's own contacts and groups,
/// coalesced as Apple's are; the token's coding; what Swift may not call.
@Suite("CNChangeHistory: events from a token, coalesced; tokens; the enumerator Swift may not call")
struct CNChangeHistoryTests {
    private func fetch(
        _ store: CNContactStore, from token: Data?, groups: Bool = false, mutable: Bool = false
    ) throws -> (lines: [String], contacts: [CNContact], token: Data) {
        let request = CNChangeHistoryFetchRequest()
        request.startingToken = token
        request.includeGroupChanges = groups
        request.mutableObjects = mutable
        let result = try ContactsChangeHistory.enumerator(for: request, in: store)
        let recorder = ChangeHistoryRecorder(containers: true)
        recorder.record(result.value)
        return (recorder.lines, recorder.contacts, result.currentHistoryToken)
    }

    private func save(_ store: CNContactStore, _ build: (CNSaveRequest) -> Void) throws {
        let request = CNSaveRequest()
        build(request)
        try store.execute(request)
    }

    private func contact(_ given: String) -> CNMutableContact {
        let contact = CNMutableContact()
        contact.givenName = given
        return contact
    }

    @Test("no token: drop everything, then an add for each contact; then exactly the net changes since each token")
    func netChangesSinceToken() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let empty = try fetch(store, from: nil)
            #expect(empty.lines == ["drop"])
            let grace = contact("Grace")
            try save(store) { $0.add(grace, toContainerWithIdentifier: nil) }
            #expect(try fetch(store, from: empty.token).lines == ["add Grace CNContainer.local"])
            let first = try fetch(store, from: nil)
            #expect(first.lines == ["drop", "add Grace CNContainer.local"])
            #expect(store.currentHistoryToken == first.token)

            let ada = contact("Ada")
            let fleeting = contact("Fleeting")
            try save(store) {
                $0.add(ada, toContainerWithIdentifier: nil)
                $0.add(fleeting, toContainerWithIdentifier: nil)
            }
            let renamed = grace.mutableCopy() as! CNMutableContact
            renamed.givenName = "Grace B."
            try save(store) {
                $0.update(renamed)
                $0.delete(fleeting)
            }
            let second = try fetch(store, from: first.token)
            #expect(second.lines == ["add Ada CNContainer.local", "update Grace B."])
            #expect(second.contacts.map(\.identifier) == [ada.identifier, grace.identifier])
            #expect(second.contacts.allSatisfy { !($0 is CNMutableContact) })
            #expect(try fetch(store, from: second.token).lines.isEmpty)
            #expect(try fetch(store, from: second.token).token == second.token)

            try save(store) { $0.delete(ada) }
            #expect(try fetch(store, from: second.token).lines == ["delete \(ada.identifier)"])
            #expect(try fetch(store, from: first.token, mutable: true).contacts.allSatisfy { $0 is CNMutableContact })
        }
    }

    @Test("group changes are events only when asked for: added, renamed, members in and out, deleted")
    func groupChanges() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let ada = contact("Ada")
            let alan = contact("Alan")
            try save(store) {
                $0.add(ada, toContainerWithIdentifier: nil)
                $0.add(alan, toContainerWithIdentifier: nil)
            }
            let start = try fetch(store, from: nil, groups: true).token
            let friends = CNMutableGroup()
            friends.name = "Friends"
            try save(store) {
                $0.add(friends, toContainerWithIdentifier: nil)
                $0.addMember(ada, to: friends)
            }
            let added = try fetch(store, from: start, groups: true)
            #expect(added.lines == ["add group Friends", "member Ada + Friends"])
            #expect(try fetch(store, from: start).lines.isEmpty)

            friends.name = "Pals"
            try save(store) {
                $0.update(friends)
                $0.addMember(alan, to: friends)
                $0.removeMember(ada, from: friends)
            }
            let changed = try fetch(store, from: added.token, groups: true)
            #expect(changed.lines == ["update group Pals", "member Alan + Pals", "member Ada - Pals"])

            try save(store) { $0.delete(friends) }
            #expect(try fetch(store, from: changed.token, groups: true).lines == ["delete group \(friends.identifier)"])
            #expect(
                try fetch(store, from: nil, groups: true).lines == [
                    "drop", "add Ada CNContainer.local", "add Alan CNContainer.local",
                ])
        }
    }

    @Test("a token the device did not issue is CNError.changeHistoryInvalidAnchor, saying what to give instead")
    func invalidToken() {
        withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            for bad in [Data("not a token".utf8), Data(#"{"format":99,"stores":{}}"#.utf8)] {
                let error = #expect(throws: CNError.self) { try fetch(store, from: bad) }
                #expect(error?.code == .changeHistoryInvalidAnchor)
                #expect(error?.localizedDescription.contains("token is invalid") == true)
            }
        }
    }

    @Test("with limited access only the contacts the app may see are in the history; denied access throws")
    func authorization() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let seen = contact("Seen")
            let hidden = contact("Hidden")
            try save(store) {
                $0.add(seen, toContainerWithIdentifier: nil)
                $0.add(hidden, toContainerWithIdentifier: nil)
            }
            try DeviceAuthorization(status: .limited, granted: [seen.identifier]).write(in: group.appGroup)
            #expect(try fetch(store, from: nil).lines == ["drop", "add Seen CNContainer.local"])
            try DeviceAuthorization(status: .denied).write(in: group.appGroup)
            let error = #expect(throws: CNError.self) { try fetch(store, from: nil) }
            #expect(error?.code == .authorizationDenied)
        }
    }

    @Test("seed 001's visitor and fetch compile, its Objective-C wrapper's call replaced by ContactsChangeHistory")
    func seedVisitorCompiles() throws {
        let errors = try TypeCheck.errors(
            """
            import Contacts
            class Visitor: NSObject, CNChangeHistoryEventVisitor {
                var count = 0
                func visit(_ event: CNChangeHistoryDropEverythingEvent) { count = 0 }
                func visit(_ event: CNChangeHistoryAddContactEvent) { count += 1 }
                func visit(_ event: CNChangeHistoryUpdateContactEvent) {}
                func visit(_ event: CNChangeHistoryDeleteContactEvent) { count -= 1 }
            }
            func fetchChanges(_ store: CNContactStore, savedToken: Data?, visitor: Visitor) throws -> Data {
                let fetchHistoryRequest = CNChangeHistoryFetchRequest()
                fetchHistoryRequest.startingToken = savedToken
                // The seed asks for CNContactFormatter.descriptorForRequiredKeys(for: .fullName), which
                // another part of issue 41 adds; any key descriptor shows the request takes it.
                fetchHistoryRequest.additionalContactKeyDescriptors = [CNContactGivenNameKey as CNKeyDescriptor]
                let result = try ContactsChangeHistory.enumerator(for: fetchHistoryRequest, in: store)
                result.value
                    .compactMap { $0 as? CNChangeHistoryEvent }
                    .forEach { event in event.accept(visitor) }
                return result.currentHistoryToken
            }
            """)
        #expect(errors == [])
    }

    @Test("store.enumerator(for:) does not compile in Swift, as in Apple's SDK, and the message names the route")
    func enumeratorUnavailableInSwift() throws {
        let errors = try TypeCheck.errors(
            """
            import Contacts
            func fetch(_ store: CNContactStore) throws {
                _ = try store.enumerator(for: CNChangeHistoryFetchRequest())
            }
            """)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("'enumerator(for:)' is unavailable") == true)
        #expect(errors.first?.contains("ContactsChangeHistory.enumerator(for:in:)") == true)
    }
}
