import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation
import XcodeProjectReader

/// `enable`'s options that give a provider built from a package its bundle identity (issue 40): what
/// an Xcode project's build settings give one built with `--xcode-project` (`PRODUCT_BUNDLE_IDENTIFIER`,
/// `MARKETING_VERSION`, `CURRENT_PROJECT_VERSION`, the app's display name).
///
/// They write the executable's bundle (``ExecutableBundle``: `<executable>.appex/Info.plist`, and its
/// app's keys in `ContainingApp.plist`), which `Bundle.main` reads in the provider. What is not given
/// keeps the bundle's present value, else the documented default (``ExecutableBundle/defaultInfo(executableName:)``).
/// The bundle lies beside the executable, as an iOS extension's identity is its bundle's: every App
/// Group that registers the same executable sees it.
enum BundleIdentityOptions {
    static let bundleIdentifier = Option<String>(
        "--bundle-identifier", value: "ID",
        help:
            "The provider's CFBundleIdentifier, in <executable>.appex/Info.plist (default \(ExecutableBundle.defaultIdentifierPrefix)<executable name>; kept until changed).",
        convert: { text, option in try identifier(text, option: option) })
    static let displayName = Option<String>(
        "--display-name", value: "NAME", help: "The provider's CFBundleDisplayName (default the executable's name).",
        convert: { text, option in try nonEmpty(text, option: option) })
    static let marketingVersion = Option<String>(
        "--marketing-version", value: "X.Y",
        help:
            "CFBundleShortVersionString of the provider and its app, as MARKETING_VERSION (default \(ExecutableBundle.defaultShortVersion)).",
        convert: { text, option in try version(text, option: option) })
    static let buildNumber = Option<String>(
        "--build-number", value: "N",
        help:
            "CFBundleVersion of the provider and its app, as CURRENT_PROJECT_VERSION (default \(ExecutableBundle.defaultBuildVersion)).",
        convert: { text, option in try version(text, option: option) })
    static let appBundleIdentifier = Option<String>(
        "--app-bundle-identifier", value: "ID",
        help:
            "The containing app's CFBundleIdentifier, which must prefix the provider's as Xcode requires (default the provider's without its last component).",
        convert: { text, option in try identifier(text, option: option) })
    static let appDisplayName = Option<String>(
        "--app-display-name", value: "NAME",
        help:
            "The containing app's CFBundleDisplayName: the domain's displayName (default the app executable's name, else the app identifier's last component; no app: the App Group folder's name).",
        convert: { text, option in try nonEmpty(text, option: option) })

    static let appExecutable = Option<String>(
        "--app-executable", value: "PATH",
        help:
            "An app-side executable run against this App Group: give it the containing app's bundle (PATH.app/Info.plist), so its Bundle.main is the app's."
    )

    /// Every identity option, in the order help lists them.
    static let all: [any OptionDeclaration] = [
        bundleIdentifier, displayName, marketingVersion, buildNumber, appBundleIdentifier, appDisplayName,
        appExecutable,
    ]

    /// The names of the options given on `arguments`' command line that a project's settings would
    /// give (all but `--app-executable`, which takes the project's app too).
    static func given(in arguments: ParsedArguments) -> [String] {
        all.map(\.spec.name).filter { $0 != appExecutable.name && arguments.has($0) }
    }

    /// A project's build settings are its bundle's identity: refuse these options beside `--xcode-project`.
    static func validate(_ arguments: ParsedArguments) throws {
        let names = given(in: arguments)
        guard let first = names.first, arguments.has(XcodeProjectBuild.projectOption) else { return }
        throw UsageError(
            "\(first) and --xcode-project: the project's build settings are the provider's identity (PRODUCT_BUNDLE_IDENTIFIER, MARKETING_VERSION, CURRENT_PROJECT_VERSION, the app target's display name); set them in the project, or drop --xcode-project"
        )
    }

    /// A bundle identifier as Xcode accepts one: letters, digits, `-` and `.` (RFC 1034), no empty component.
    static func identifier(_ text: String, option: String) throws -> String {
        let allowed = ExecutableBundle.rfc1034(text.replacingOccurrences(of: ".", with: "-"))
        guard !text.isEmpty, allowed == text.replacingOccurrences(of: ".", with: "-"),
            !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else {
            throw UsageError(
                "\(option) '\(text)': a bundle identifier holds only letters, digits, '-' and '.' between non-empty parts (RFC 1034), as Xcode requires; for example com.example.MyApp"
            )
        }
        return text
    }

    /// One to three integers separated by periods, as Apple documents CFBundleShortVersionString and CFBundleVersion.
    static func version(_ text: String, option: String) throws -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil })
        else {
            throw UsageError(
                "\(option) '\(text)': one to three integers separated by periods (1.0, 2.5.1), as Apple documents the bundle's versions"
            )
        }
        return text
    }

    static func nonEmpty(_ text: String, option: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("\(option): give a name") }
        return text
    }

    /// The identity given on one `enable` command line; nil keeps the bundle's present value.
    struct Given {
        var bundleIdentifier, displayName, marketingVersion, buildNumber: String?
        var appBundleIdentifier, appDisplayName: String?
        /// `--app-executable`, absolute, links resolved as the kernel resolves them for `Bundle.main`.
        var appExecutable: String?

        init(_ arguments: ParsedArguments) throws {
            bundleIdentifier = try arguments.value(BundleIdentityOptions.bundleIdentifier)
            displayName = try arguments.value(BundleIdentityOptions.displayName)
            marketingVersion = try arguments.value(BundleIdentityOptions.marketingVersion)
            buildNumber = try arguments.value(BundleIdentityOptions.buildNumber)
            appBundleIdentifier = try arguments.value(BundleIdentityOptions.appBundleIdentifier)
            appDisplayName = try arguments.value(BundleIdentityOptions.appDisplayName)
            if let path = try arguments.value(BundleIdentityOptions.appExecutable) {
                let absolute = (AppGroup(path: path).path as NSString).resolvingSymlinksInPath
                try ExecutableCheck.require(absolute, given: path, option: BundleIdentityOptions.appExecutable.name)
                appExecutable = absolute
            }
        }

        /// Whether no option about the provider's own bundle was given (`--app-executable` alone
        /// writes the app's, which a project may give).
        var isEmpty: Bool {
            [bundleIdentifier, displayName, marketingVersion, buildNumber, appBundleIdentifier, appDisplayName]
                .allSatisfy { $0 == nil }
        }

        /// The bundle `executable` gets: its present keys (else the default identity) with these
        /// applied, and its app's keys when it has an app or one is given. Refuses, as Xcode does, an
        /// extension identifier its app's does not prefix, naming both.
        func bundle(forExecutable executable: String) throws -> (info: [String: Any], containingApp: [String: Any]?) {
            let name = (executable as NSString).lastPathComponent
            var info =
                ExecutableBundle.info(ofExecutable: executable) ?? ExecutableBundle.defaultInfo(executableName: name)
            info["CFBundleExecutable"] = name
            if let bundleIdentifier { info["CFBundleIdentifier"] = bundleIdentifier }
            if let displayName { info["CFBundleDisplayName"] = displayName }
            if let marketingVersion { info["CFBundleShortVersionString"] = marketingVersion }
            if let buildNumber { info["CFBundleVersion"] = buildNumber }
            let own = info["CFBundleIdentifier"] as? String ?? ""
            var app = ExecutableBundle.containingAppInfo(
                ofBundle: ExecutableBundle.directory(forExecutable: executable))
            if app == nil, appBundleIdentifier != nil || appDisplayName != nil || appExecutable != nil { app = [:] }
            guard var app else { return (info, nil) }
            if let appBundleIdentifier {
                app["CFBundleIdentifier"] = appBundleIdentifier
            } else if app["CFBundleIdentifier"] == nil {
                // The prefix Xcode requires: the provider's identifier without its last component.
                app["CFBundleIdentifier"] = own.split(separator: ".").dropLast().joined(separator: ".")
            }
            let parent = app["CFBundleIdentifier"] as? String ?? ""
            guard !parent.isEmpty else {
                throw UsageError(
                    "\(BundleIdentityOptions.appBundleIdentifier.name): the provider's identifier \(own) has no prefix to be its app's; give the app's identifier, or a provider identifier such as com.example.MyApp.\(own)"
                )
            }
            if let appDisplayName { app["CFBundleDisplayName"] = appDisplayName }
            if app["CFBundleName"] == nil {
                app["CFBundleName"] =
                    appExecutable.map { ($0 as NSString).lastPathComponent }
                    ?? String(parent.split(separator: ".").last ?? "App")
            }
            // An app and its extension share their versions, as Xcode warns when they differ.
            for key in ["CFBundleShortVersionString", "CFBundleVersion"] { app[key] = info[key] }
            app["CFBundlePackageType"] = "APPL"
            let parentName = (app["CFBundleDisplayName"] as? String) ?? (app["CFBundleName"] as? String) ?? parent
            if let problem = BundleInfo.prefixProblem(embedded: own, parent: parent, parentName: parentName) {
                let how =
                    appBundleIdentifier == nil && bundleIdentifier != nil
                    ? " (the app's identifier is the bundle's, kept from an earlier enable: give --app-bundle-identifier too)"
                    : ""
                throw UsageError("\(BundleIdentityOptions.bundleIdentifier.name): \(problem)\(how)")
            }
            return (info, app)
        }
    }
}

extension BundleIdentityOptions {
    /// The executable whose bundle the options write: `named` (`--extension`), else the one the system
    /// would launch, symbolic links resolved as the kernel resolves them for `Bundle.main`. Refuses one
    /// built from an Xcode project when `refusingProjectBuilt`: the project gives its identity (and the
    /// next rebuild rewrites it).
    static func executable(_ named: String?, client: SystemClient, refusingProjectBuilt: Bool) throws -> String {
        let configured = try client.configuration().extensionPath
        guard let path = named ?? ExtensionDiscovery.executable(configured: configured) else {
            throw CommandFailure(
                "\(bundleIdentifier.name): no provider executable to give the identity to; give --extension PATH")
        }
        let resolved = (path as NSString).resolvingSymlinksInPath
        if refusingProjectBuilt, let record = XcodeBuildRecord.read(forExecutable: resolved) {
            throw UsageError(
                "\(resolved) is built from the Xcode project \(record.project): its identity is the project's build settings (PRODUCT_BUNDLE_IDENTIFIER, MARKETING_VERSION, CURRENT_PROJECT_VERSION); set them there"
            )
        }
        return resolved
    }

    /// Writes `bundle` as `executable`'s; returns whether it differs from what was there.
    static func write(_ bundle: (info: [String: Any], containingApp: [String: Any]?), forExecutable executable: String)
        throws -> Bool
    {
        let directory = ExecutableBundle.directory(forExecutable: executable)
        let before = (
            ExecutableBundle.info(ofExecutable: executable), ExecutableBundle.containingAppInfo(ofBundle: directory)
        )
        do {
            try ExecutableBundle.write(bundle.info, containingApp: bundle.containingApp, forExecutable: executable)
        } catch {
            throw CommandFailure("\(error)")
        }
        func same(_ old: [String: Any]?, _ new: [String: Any]?) -> Bool {
            guard let old, let new else { return old == nil && new == nil }
            return NSDictionary(dictionary: old).isEqual(to: new)
        }
        return !same(before.0, bundle.info) || !same(before.1, bundle.containingApp)
    }

    /// Writes the provider's containing app (its `ContainingApp.plist`, which a project or the options
    /// wrote) as `identity`'s `--app-executable` bundle, if given; refuses a provider that has no app.
    static func writeApplication(_ identity: Given, providerExecutable provider: String) throws {
        guard let app = identity.appExecutable else { return }
        guard
            let info = ExecutableBundle.containingAppInfo(
                ofBundle: ExecutableBundle.directory(forExecutable: provider))
        else {
            throw CommandFailure(
                "\(appExecutable.name): the provider \(provider) has no containing app (its Xcode project has no application target); give --app-bundle-identifier"
            )
        }
        do {
            try ExecutableBundle.writeApplication(info, forExecutable: app)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// `com.acme.Contacts.Provider 3.1 (7) in Acme Contacts`: what `enable` says it wrote.
    static func describe(_ bundle: (info: [String: Any], containingApp: [String: Any]?)) -> String {
        let text = { (dictionary: [String: Any], key: String) in dictionary[key] as? String ?? "?" }
        var line =
            "\(text(bundle.info, "CFBundleIdentifier")) \(text(bundle.info, "CFBundleShortVersionString")) (\(text(bundle.info, "CFBundleVersion")))"
        if let app = bundle.containingApp {
            line += " in " + ((app["CFBundleDisplayName"] as? String) ?? text(app, "CFBundleName"))
        }
        return line
    }
}
