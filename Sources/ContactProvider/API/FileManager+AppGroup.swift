import AppGroupStore
import Foundation

extension FileManager {
    /// The shared container of an App Group.
    ///
    /// On Linux every group identifier resolves to the App Group directory in use (`AppGroup.current`: a
    /// task's scope or an in-process conformance run, else `--app-group`, `CONTACT_PROVIDER_APP_GROUP`, or
    /// `AppGroup.defaultGroup()`), so app and extension code that locates its shared files this way
    /// works unchanged. The directory is created (0700) if needed; nil if it cannot be.
    ///
    /// On iOS Foundation defines this method; here ContactProvider does (Linux's Foundation has no
    /// App Groups). Without the `MemberImportVisibility` upcoming feature, any file of the target
    /// that imports ContactProvider makes it visible to all; with the feature on, the calling file
    /// itself must `import ContactProvider`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        let group = AppGroup.current
        guard (try? group.ensureExists()) != nil else { return nil }
        return URL(fileURLWithPath: group.path, isDirectory: true)
    }
}
