import Foundation
import Glibc

/// The bundle of a provider executable: the directory `<executable>.appex/` beside it, holding the
/// `Info.plist` that `Bundle.main` reads (issue 40).
///
/// On iOS every app and extension has a bundle identifier, a display name and versions, and code
/// such as `Logger(subsystem: Bundle.main.bundleIdentifier!, category: …)` relies on it. Linux
/// Foundation takes the main bundle from the executable's path; the `BundleLocation` C module answers
/// that path as `<executable>.appex/<name>` when the directory exists, so the directory's `Info.plist`
/// is the process's `infoDictionary`, with no change to provider code and no re-execution.
///
/// The identity comes from the Xcode project's build settings when `contacts-host` builds the
/// provider from one (``write(_:containingApp:forExecutable:)``), else it is ``defaultInfo(executableName:)``.
package enum ExecutableBundle {
    /// The directory suffix of an extension's bundle, as on iOS.
    package static let extensionSuffix = ".appex"
    /// The directory suffix of an app's bundle, as on iOS: an app-side executable's `<executable>.app/`.
    package static let applicationSuffix = ".app"
    /// The file in an extension's bundle holding its containing app's `Info.plist` keys (on iOS the
    /// extension lies inside the app's bundle; here the app has no directory of its own).
    package static let containingAppFile = "ContainingApp.plist"
    /// The organization prefix of the default identifiers.
    package static let defaultIdentifierPrefix = "com.example."

    /// `CFBundleShortVersionString` of the default identity, as Xcode's templates start.
    package static let defaultShortVersion = "1.0"
    /// `CFBundleVersion` of the default identity, as Xcode's templates start.
    package static let defaultBuildVersion = "1"

    /// `<executable>.appex`.
    package static func directory(forExecutable executable: String) -> String {
        executable + extensionSuffix
    }

    /// The identity of a provider built without an Xcode project, derived from its executable's name:
    /// `com.example.<name>` (characters other than letters, digits, `-` and `.` become `-`, as Xcode
    /// makes a bundle identifier from a product name), named and displayed as the executable, version
    /// 1.0 (1) as Xcode's templates start, and the Contact Provider extension point.
    package static func defaultInfo(executableName name: String) -> [String: Any] {
        [
            "CFBundleIdentifier": defaultIdentifierPrefix + rfc1034(name),
            "CFBundleName": name,
            "CFBundleDisplayName": name,
            "CFBundleExecutable": name,
            "CFBundleShortVersionString": defaultShortVersion,
            "CFBundleVersion": defaultBuildVersion,
            "CFBundlePackageType": "XPC!",
            "EXAppExtensionAttributes": ["EXExtensionPointIdentifier": "com.apple.contact.provider.extension"],
        ]
    }

    /// `My Provider` → `My-Provider`: the characters a bundle identifier allows (RFC 1034), others `-`.
    package static func rfc1034(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                    ? Character(scalar) : "-"
            })
    }

    /// Makes `executable`'s bundle with the default identity unless it already has one; returns whether
    /// it had to be made. Errors are the file system's, with the path.
    @discardableResult
    package static func ensure(forExecutable executable: String) throws -> Bool {
        let plist = directory(forExecutable: executable) + "/Info.plist"
        if FileManager.default.fileExists(atPath: plist) { return false }
        let name = (executable as NSString).lastPathComponent
        try write(defaultInfo(executableName: name), containingApp: nil, forExecutable: executable)
        return true
    }

    /// Writes `info` as `executable`'s bundle `Info.plist` (and `containingApp` beside it), replacing
    /// what was there; the bundle's `<name>` links to the executable, so `Bundle.main.executablePath`
    /// names a file that runs.
    package static func write(_ info: [String: Any], containingApp: [String: Any]?, forExecutable executable: String)
        throws
    {
        let bundle = directory(forExecutable: executable)
        try writeBundle(bundle, info: info, forExecutable: executable) {
            let appFile = bundle + "/" + containingAppFile
            if let containingApp {
                try plistData(containingApp).write(to: URL(fileURLWithPath: appFile), options: .atomic)
            } else {
                try? FileManager.default.removeItem(atPath: appFile)
            }
        }
    }

    /// Writes `info` as the app bundle (`<executable>.app/Info.plist`) of an app-side `executable`, so
    /// its `Bundle.main` answers as the app's on iOS (`BundleLocation` finds it as it finds `.appex`).
    package static func writeApplication(_ info: [String: Any], forExecutable executable: String) throws {
        var info = info
        info["CFBundleExecutable"] = (executable as NSString).lastPathComponent
        info["CFBundlePackageType"] = "APPL"
        try writeBundle(executable + applicationSuffix, info: info, forExecutable: executable) {}
    }

    /// Makes `bundle` with `info` as its `Info.plist`, runs `more`, and links the bundle's `<name>` to the
    /// executable, so `Bundle.main.executablePath` names a file that runs.
    private static func writeBundle(
        _ bundle: String, info: [String: Any], forExecutable executable: String, more: () throws -> Void
    ) throws {
        let name = (executable as NSString).lastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            try plistData(info).write(to: URL(fileURLWithPath: bundle + "/Info.plist"), options: .atomic)
            try more()
            let link = bundle + "/" + name
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil {
                try? FileManager.default.removeItem(atPath: link)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../" + name)
            }
        } catch {
            throw BundleWriteError(path: bundle, reason: error.localizedDescription)
        }
    }

    /// The keys of `executable`'s bundle `Info.plist`, if it has one.
    package static func info(ofExecutable executable: String) -> [String: Any]? {
        propertyList(at: directory(forExecutable: executable) + "/Info.plist")
    }

    /// The containing app's keys a running extension's bundle holds, if any.
    package static func containingAppInfo(ofBundle bundlePath: String) -> [String: Any]? {
        propertyList(at: bundlePath + "/" + containingAppFile)
    }

    /// The dictionary of the property list at `path`; nil when absent or not one.
    private static func propertyList(at path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    /// An XML property list, as Xcode writes Info.plist.
    private static func plistData(_ value: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    }
}

/// A provider's bundle could not be written: where and why.
package struct BundleWriteError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String {
        "\(path): cannot write the bundle (Info.plist for Bundle.main): \(reason)"
    }
}
