import AppGroupStore
import ContactProviderSystem
import Foundation

extension FileManager {
    /// The shared container of an App Group.
    ///
    /// On Linux every group identifier resolves to the App Group directory in use (`AppGroup.current`: a
    /// task's scope or an in-process conformance run, else `--app-group`, `CONTACT_PROVIDER_APP_GROUP`, or
    /// `AppGroup.defaultGroup()`), so app and extension code that locates its shared files this way
    /// works unchanged. The directory is created (0700) if needed; nil if it cannot be.
    ///
    /// A provider built from an Xcode project (`contacts-host enable --xcode-project`) carries its
    /// target's entitlements beside the executable, as an iOS binary carries them in its signature:
    /// then, as on iOS, only the groups of `com.apple.security.application-groups` have a container
    /// and any other identifier answers nil (with one line on stderr saying why).
    ///
    /// On iOS Foundation defines this method; here ContactProvider does (Linux's Foundation has no
    /// App Groups). Without the `MemberImportVisibility` upcoming feature, any file of the target
    /// that imports ContactProvider makes it visible to all; with the feature on, the calling file
    /// itself must `import ContactProvider`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        if let entitled = ExecutableEntitlements.applicationGroups, !entitled.groups.contains(groupIdentifier) {
            FileHandle.standardError.write(
                Data(
                    "containerURL(forSecurityApplicationGroupIdentifier: \"\(groupIdentifier)\") is nil: \(entitled.path) lists \(entitled.groups)\n"
                        .utf8))
            return nil
        }
        let group = AppGroup.current
        guard (try? group.ensureExists()) != nil else { return nil }
        return URL(fileURLWithPath: group.path, isDirectory: true)
    }
}

/// The entitlements a provider executable carries (`<executable>.entitlements`, written by
/// `contacts-host` when it builds an Xcode target), read once.
enum ExecutableEntitlements {
    /// The App Groups it is entitled to, and the file that says so; nil when it carries none.
    static let applicationGroups: (path: String, groups: [String])? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        // In its bundle (`<executable>.appex/<name>`, issue 40) the executable is the one beside it.
        let real =
            ProviderBundleStart.isBundled(executable)
            ? String(
                (executable as NSString).deletingLastPathComponent.dropLast(ExecutableBundle.extensionSuffix.count))
            : executable
        let path = real + ".entitlements"
        guard let data = FileManager.default.contents(atPath: path),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else { return nil }
        return (path, plist["com.apple.security.application-groups"] as? [String] ?? [])
    }()
}
