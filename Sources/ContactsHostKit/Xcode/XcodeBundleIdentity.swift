import ContactProviderSystem
import Foundation
import XcodeProjectReader

/// The bundle of a provider built from an Xcode project (issue 40): the extension target's Info.plist
/// as Xcode builds it (``BundleInfo``), written where its `Bundle.main` finds it
/// (``ExecutableBundle``), with its containing app's keys beside it for the domain's display name.
struct XcodeBundleIdentity {
    /// The extension's keys.
    let info: [String: Any]
    /// Its containing app's keys, when the project has the app.
    let containingApp: [String: Any]?

    /// Reads `target`'s Info.plist and its app's; refuses, before anything is built and as Xcode
    /// does, an extension whose identifier is not prefixed by its app's.
    init(_ target: ContactProviderTarget) throws {
        let extensionInfo = try BundleInfo(target: target.target, in: target.project)
        info = extensionInfo.dictionary
        if let app = try BundleInfo.containingApp(of: target.target, in: target.project) {
            let appInfo = try BundleInfo(target: app, in: target.project)
            try extensionInfo.checkPrefixed(by: appInfo)
            containingApp = appInfo.dictionary
        } else {
            containingApp = nil
        }
    }

    /// Writes the bundle of the built `executable`.
    func write(forExecutable executable: String) throws {
        var dictionary = info
        // The executable here is named for the target as a Swift identifier (GeneratedPackage).
        let name = (executable as NSString).lastPathComponent
        dictionary["CFBundleExecutable"] = name
        // Xcode refuses to build without PRODUCT_BUNDLE_IDENTIFIER; a project that lacks one still gets
        // the documented default rather than a nil `Bundle.main.bundleIdentifier`.
        if dictionary["CFBundleIdentifier"] == nil {
            dictionary["CFBundleIdentifier"] = ExecutableBundle.defaultInfo(executableName: name)["CFBundleIdentifier"]
        }
        do {
            try ExecutableBundle.write(dictionary, containingApp: containingApp, forExecutable: executable)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
