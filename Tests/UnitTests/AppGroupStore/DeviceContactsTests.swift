import AppGroupStore
import Foundation
import TestSupport
import Testing

/// The device's own contacts and groups: one journaled store in `<App Group>/device/contacts`,
/// each change set checked under the writer's lock and saved all or nothing.
@Suite("The device's own contacts: change sets saved all or nothing")
struct DeviceContactsTests {
    private func record(_ identifier: String, _ givenName: String) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.givenName = givenName
        return record
    }

    @Test("an empty device holds nothing; adds, updates and deletes are read back by another reader")
    func savesAndReadsBack() throws {
        try withTemporaryAppGroup { group in
            let device = DeviceContacts(appGroup: group.appGroup)
            #expect(try device.contents().contacts.isEmpty)
            var add = DeviceChangeSet()
            add.addedContacts = [record("a", "Ada"), record("b", "Bob")]
            try device.save(add)
            var update = DeviceChangeSet()
            update.updatedContacts = [record("a", "Adele")]
            update.deletedContacts = ["b"]
            try device.save(update)
            let reread = try DeviceContacts(appGroup: group.appGroup).contents()
            #expect(reread.contacts.map(\.identifier) == ["a"])
            #expect(reread.contacts.map(\.givenName) == ["Adele"])
        }
    }

    @Test("a refused change set writes nothing and names the contact or group")
    func refusedChangeSetWritesNothing() throws {
        try withTemporaryAppGroup { group in
            let device = DeviceContacts(appGroup: group.appGroup)
            var add = DeviceChangeSet()
            add.addedContacts = [record("a", "Ada")]
            try device.save(add)
            var again = DeviceChangeSet()
            again.addedContacts = [record("c", "Cy"), record("a", "Ada")]
            #expect(throws: DeviceContactsError.contactExists("a")) { try device.save(again) }
            var missing = DeviceChangeSet()
            missing.updatedContacts = [record("zed", "Zed")]
            #expect(throws: DeviceContactsError.noSuchContact("zed")) { try device.save(missing) }
            var noGroup = DeviceChangeSet()
            noGroup.addedMembers = [("a", "friends")]
            #expect(throws: DeviceContactsError.noSuchGroup("friends")) { try device.save(noGroup) }
            #expect(try device.contents().contacts.map(\.identifier) == ["a"], "the refused sets wrote nothing")
        }
    }

    @Test("groups: added with members in one set, renamed, a deleted contact leaves its groups, deleted")
    func groupsAndMembership() throws {
        try withTemporaryAppGroup { group in
            let device = DeviceContacts(appGroup: group.appGroup)
            var first = DeviceChangeSet()
            first.addedGroups = [DeviceGroup(identifier: "g1", name: "Friends")]
            first.addedContacts = [record("a", "Ada"), record("b", "Bob")]
            first.addedMembers = [("a", "g1"), ("b", "g1"), ("a", "g1")]
            try device.save(first)
            #expect(
                try device.contents().groups == [DeviceGroup(identifier: "g1", name: "Friends", members: ["a", "b"])])
            var second = DeviceChangeSet()
            second.updatedGroups = [DeviceGroup(identifier: "g1", name: "Family")]
            second.deletedContacts = ["a"]
            try device.save(second)
            #expect(try device.contents().groups == [DeviceGroup(identifier: "g1", name: "Family", members: ["b"])])
            var third = DeviceChangeSet()
            third.removedMembers = [("b", "g1")]
            try device.save(third)
            #expect(try device.contents().groups.first?.members == [])
            var fourth = DeviceChangeSet()
            fourth.deletedGroups = ["g1"]
            try device.save(fourth)
            #expect(try device.contents().groups.isEmpty)
            #expect(try device.contents().contacts.map(\.identifier) == ["b"], "a group's members stay")
        }
    }

    @Test("the authorization setting: authorized without a file, written and read back, a damaged file named")
    func authorizationSetting() throws {
        try withTemporaryAppGroup { group in
            #expect(try DeviceAuthorization.read(in: group.appGroup) == .default)
            #expect(DeviceAuthorization.default.status == .authorized)
            let limited = DeviceAuthorization(status: .limited, granted: ["a"], answer: .deny)
            try limited.write(in: group.appGroup)
            #expect(try DeviceAuthorization.read(in: group.appGroup) == limited)
            let path = DeviceAuthorization.path(in: group.appGroup)
            try Data("{".utf8).write(to: URL(fileURLWithPath: path))
            #expect { try DeviceAuthorization.read(in: group.appGroup) } throws: {
                "\($0)".contains(path) && "\($0)".contains("contacts-host device authorization")
            }
        }
    }
}
