import AppGroupStore
import Contacts
import Foundation
import Synchronization
import TestSupport
import Testing

/// `CNContactStoreDidChange` in a process holding a `CNContactStore`, when the device's contacts
/// change in another process (`contacts-host device`, a provider's sync) or in this one (the app's
/// own save): the watcher sleeps on inotify, so each wait below is on the notification itself.
@Suite("CNContactStoreDidChange: posted when another process or the app itself changes the device's contacts")
struct ContactStoreDidChangeTests {
    /// Counts the notifications for one App Group and lets a test wait for the next one.
    final class ChangeObserver: @unchecked Sendable {
        private let arrived = DispatchSemaphore(value: 0)
        private var token: (any NSObjectProtocol)?

        init(appGroup: AppGroup) {
            let path = appGroup.path
            token = NotificationCenter.default.addObserver(
                forName: .CNContactStoreDidChange, object: nil, queue: nil
            ) { [arrived] notification in
                if notification.userInfo?[CNContactStore.appGroupUserInfoKey] as? String == path { arrived.signal() }
            }
        }

        /// Waits for notifications until, after one of them, `condition` holds; false when none made
        /// it hold within `seconds` (a notification left over from an earlier change is passed over).
        func waitForChange(within seconds: Double = 20, until condition: () throws -> Bool) rethrows -> Bool {
            let deadline = DispatchTime.now() + seconds
            while arrived.wait(timeout: deadline) == .success {
                if try condition() { return true }
            }
            return false
        }

        func stop() {
            if let token { NotificationCenter.default.removeObserver(token) }
            token = nil
        }
    }

    let keys = [CNContactGivenNameKey as any CNKeyDescriptor]

    private func names(_ store: CNContactStore) throws -> Set<String> {
        var seen: Set<String> = []
        try store.enumerateContacts(with: CNContactFetchRequest(keysToFetch: keys)) { contact, _ in
            seen.insert(contact.givenName)
        }
        return seen
    }

    @Test(
        "another process's save, the app's own save, a provider's sync, reset and disable each post it, with the change visible"
    )
    func postedForEachKindOfChange() throws {
        try withTemporaryAppGroup { group in
            let store = CNContactStore(appGroup: group.appGroup)
            let observer = ChangeObserver(appGroup: group.appGroup)
            defer { observer.stop() }

            try HostRunner.process.succeed(["device", "add", "--given-name", "Grace"], in: group)
            #expect(try observer.waitForChange { try names(store).contains("Grace") }, "after contacts-host device add")

            let ada = CNMutableContact()
            ada.givenName = "Ada"
            let save = CNSaveRequest()
            save.add(ada, toContainerWithIdentifier: nil)
            try store.execute(save)
            #expect(try observer.waitForChange { try names(store).contains("Ada") }, "after the app's own save")

            try HostRunner.process.succeed(["enable"], in: group)
            defer { _ = try? HostRunner.process.run(["disable"], in: group) }
            try HostRunner.process.succeed(["add", "--id", "alan", "--given-name", "Alan"], in: group)
            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            #expect(try observer.waitForChange { try names(store).contains("Alan") }, "after the provider's sync")

            try HostRunner.process.succeed(["system", "reset"], in: group)
            #expect(try observer.waitForChange { try !names(store).contains("Alan") }, "after the provider's reset")

            try HostRunner.process.succeed(["signal", "--wait"], in: group)
            #expect(try observer.waitForChange { try names(store).contains("Alan") }, "after the sync that follows")
            // `disable` may warn on stderr about a provider still on its way out: only its exit status counts here.
            #expect(try HostRunner.process.run(["disable"], in: group).exitCode == 0)
            #expect(try observer.waitForChange { try !names(store).contains("Alan") }, "after the domain's disable")
        }
    }
}
