import AppGroupStore
import Foundation

extension FileManager {
    /// The shared container of an App Group.
    ///
    /// On Linux every group identifier resolves to the App Group directory in use
    /// (`--app-group`, `CONTACT_PROVIDER_APP_GROUP`, or `./AppGroup`), so app and extension code
    /// that locates its shared files this way works unchanged. The directory is created (0700)
    /// if needed; nil if it cannot be.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        let group = AppGroup.current
        guard (try? group.ensureExists()) != nil else { return nil }
        return URL(fileURLWithPath: group.path, isDirectory: true)
    }
}
