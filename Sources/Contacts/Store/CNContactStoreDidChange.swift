import AppGroupStore
import Foundation

extension Notification.Name {
    /// Posted (on `NotificationCenter.default`, from a background thread, with a nil object) in each
    /// process holding a ``CNContactStore`` when the device's contacts change: a provider's sync
    /// commits, or the user's own contacts or groups change in any process (this one included).
    ///
    /// As on iOS the notification says that something changed, not what: fetch again. Changes close
    /// together may be reported once. The simulator adds one key to its user info,
    /// `"CNContactStoreAppGroupPath"`: the App Group whose device changed (a process, such as a test
    /// run, may hold stores of several).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (Apple's name, so `.CNContactStoreDidChange` compiles as on iOS.)
    public static let CNContactStoreDidChange = Notification.Name("CNContactStoreDidChangeNotification")
}

extension CNContactStore {
    /// Starts the process's watcher of `appGroup`'s device (once per App Group), which posts
    /// `CNContactStoreDidChange`; the first store of an App Group starts it, as the first store
    /// connects to the Contacts daemon on iOS.
    static func watchForChanges(_ appGroup: AppGroup) {
        let path = appGroup.path
        DeviceChangeWatcher.start(appGroup: appGroup) {
            NotificationCenter.default.post(
                name: .CNContactStoreDidChange, object: nil, userInfo: [appGroupUserInfoKey: path])
        }
    }

    /// The user info key of `CNContactStoreDidChange` naming the App Group that changed (the
    /// simulator's own; Apple's keys are private).
    package static let appGroupUserInfoKey = "CNContactStoreAppGroupPath"
}
