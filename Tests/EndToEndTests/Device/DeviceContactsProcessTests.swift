import AppGroupStore
import Contacts
import Foundation
import TestSupport
import Testing

/// The device's own contacts across processes: what `contacts-host device` (another process) writes,
/// an app's `CNContactStore` reads, and the other way round; beside a provider's synced contacts;
/// groups and the authorization setting set from the command line.
@Suite("The device's contacts across processes: contacts-host device and an app's CNContactStore")
struct DeviceContactsProcessTests {
    let keys = [CNContactGivenNameKey, CNContactFamilyNameKey].map { $0 as any CNKeyDescriptor }

    private func names(_ store: CNContactStore) throws -> [String] {
        var seen: [String] = []
        try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
            seen.append(contact.givenName)
        }
        return seen.sorted()
    }

    @Test("the app adds a contact of its own and reads it back beside one added by another process and a provided one")
    func ownContactsBesideProvidedOnes() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let grace = try HostRunner.process.succeed(
                ["device", "add", "--given-name", "Grace", "--family-name", "Hopper"], in: group)
            let ada = CNMutableContact()
            ada.givenName = "Ada"
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            try store.execute(save)
            #expect(try store.unifiedContact(withIdentifier: grace, keysToFetch: keys).familyName == "Hopper")
            #expect(try store.unifiedContact(withIdentifier: ada.identifier, keysToFetch: keys).givenName == "Ada")
            let listed = try CLIHarness.contacts(
                try HostRunner.process.succeed(["device", "list", "--json"], in: group))
            #expect(Set(listed.map(\.identifier)) == [grace, ada.identifier])

            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(["add", "--id", "alan", "--given-name", "Alan"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            #expect(try names(store) == ["Ada", "Alan", "Grace"])
            #expect(
                try store.containers(matching: nil).map(\.identifier) == [
                    store.defaultContainerIdentifier(), "ContactProvider.defaultDomain",
                ])
            let provided = CNSaveRequest()
            provided.delete(
                try store.unifiedContact(withIdentifier: "ContactProvider.defaultDomain/alan", keysToFetch: keys)
                    .mutableCopy() as! CNMutableContact)
            #expect { try store.execute(provided) } throws: { ($0 as? CNError)?.code == .recordNotWritable }

            try HostRunner.process.succeed(["device", "delete", grace], in: group)
            #expect(try names(store) == ["Ada", "Alan"])
            CLIHarness.expectFailure(
                try HostRunner.process.run(["device", "delete", grace], in: group), mentioning: [grace])
        }
    }

    @Test("a group made from the command line is the app's CNGroup, with its members; the app's edits show there")
    func groupsAcrossProcesses() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let grace = try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            let family = try HostRunner.process.succeed(
                ["device", "group", "add", "Family", "--id", "family", "--member", grace], in: group)
            #expect(family == "family")
            let groups = try store.groups(matching: nil)
            #expect(groups.map(\.name) == ["Family"])
            let inGroup = try store.unifiedContacts(
                matching: CNContact.predicateForContactsInGroup(withIdentifier: "family"), keysToFetch: keys)
            #expect(inGroup.map(\.identifier) == [grace])

            let ada = CNMutableContact()
            ada.givenName = "Ada"
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            save.addMember(ada, to: try #require(groups.first))
            try store.execute(save)
            #expect(
                try HostRunner.process.succeed(["device", "group", "members", "family"], in: group) == grace + "\n"
                    + ada.identifier)
            try HostRunner.process.succeed(["device", "group", "members", "family", "--remove", grace], in: group)
            #expect(
                try HostRunner.process.succeed(["device", "groups"], in: group) == "family\tFamily\t\(ada.identifier)")
            try HostRunner.process.succeed(["device", "group", "delete", "family"], in: group)
            #expect(try store.groups(matching: nil).isEmpty)
        }
    }

    @Test("authorization set from the command line: denied throws Apple's error, limited shows the granted contacts")
    func authorizationAcrossProcesses() async throws {
        try await withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let grace = try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            try HostRunner.process.succeed(["device", "add", "--given-name", "Alan"], in: group)
            #expect(try HostRunner.process.succeed(["device", "authorization"], in: group) == "authorized")

            try HostRunner.process.succeed(["device", "authorization", "denied"], in: group)
            #expect { try store.containers(matching: nil) } throws: {
                let error = $0 as? CNError
                return error?.code == .authorizationDenied && error?.errorDescription == "Access Denied"
                    && (error?.userInfo[NSLocalizedFailureReasonErrorKey] as? String)?.contains("not been granted")
                        == true
            }
            await #expect(throws: CNError.self) { try await store.requestAccess(for: .contacts) }

            try HostRunner.process.succeed(["device", "authorization", "limited", "--grant", grace], in: group)
            #expect(try names(store) == ["Grace"])
            #expect(
                try HostRunner.process.succeed(["device", "authorization"], in: group) == "limited (granted: \(grace))")

            try HostRunner.process.succeed(
                ["device", "authorization", "not-determined", "--answer", "deny"], in: group)
            #expect(throws: CNError.self) { try store.containers(matching: nil) }
            await #expect(throws: CNError.self) { try await store.requestAccess(for: .contacts) }
            #expect(try HostRunner.process.succeed(["device", "authorization"], in: group) == "denied")
            CLIHarness.expectUsageError(
                try HostRunner.process.run(["device", "authorization", "maybe"], in: group),
                mentioning: "not-determined")
        }
    }
}
