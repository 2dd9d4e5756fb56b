import Foundation

/// The Contact Provider extension target of an Xcode project, with everything needed to build it
/// here: its Swift files, how they compile, its App Group and its Swift packages.
package struct ContactProviderTarget: Sendable {
    /// The extension point a Contact Provider extension declares in its Info.plist.
    package static let extensionPoint = "com.apple.contact.provider.extension"

    /// The project.
    package let project: XcodeProject
    /// The target.
    package let target: XcodeTarget
    /// Its Swift files (links to these are what the generated package compiles).
    package let sources: TargetSources
    /// How its Swift compiles: language mode, default isolation, upcoming features, conditions.
    package let compilation: SwiftCompilation
    /// The App Group of its entitlements (`com.apple.security.application-groups`), if any.
    package let appGroupIdentifier: String?
    /// Its entitlements file (`CODE_SIGN_ENTITLEMENTS`), absolute, if it has one.
    package let entitlementsPath: String?
    /// Its Swift packages.
    package let packages: [SwiftPackageDependency]
    /// The configuration whose settings were read.
    package let configuration: String
    /// Every file and folder a build of it depends on, absolute: the pbxproj, the `.xcconfig` files,
    /// the Info.plist, the entitlements, the project's `Package.resolved`, the Swift files and the
    /// synchronized folders. A build is stale once one of them changes (`contacts-host` rebuilds).
    package let inputPaths: [String]

    /// Finds the Contact Provider extension target of `project` (the one named `name`, when given).
    package init(project: XcodeProject, named name: String? = nil) throws {
        self.project = project
        let targets = try project.targets()
        let listing = targets.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
        var points: [String: String?] = [:]
        for target in targets where target.isExtension {
            points[target.id] = try Self.extensionPoint(of: target, in: project)
        }
        let chosen: XcodeTarget
        if let name {
            guard let match = targets.first(where: { $0.name == name }) else {
                throw XcodeProjectError(
                    file: project.bundlePath, "has no target named '\(name)'; its targets: \(listing)")
            }
            guard match.isExtension else {
                throw XcodeProjectError(
                    file: project.bundlePath,
                    "target '\(name)' is an \(match.kind), not an app extension; its targets: \(listing)")
            }
            if case .some(.some(let point)) = points[match.id], point != Self.extensionPoint {
                throw XcodeProjectError(
                    file: project.bundlePath,
                    "target '\(name)' is a \(point) extension, not a Contact Provider (\(Self.extensionPoint))")
            }
            chosen = match
        } else {
            let providers = targets.filter { points[$0.id] == .some(Self.extensionPoint) }
            guard !providers.isEmpty else {
                throw XcodeProjectError(
                    file: project.bundlePath,
                    "has no Contact Provider extension target (Info.plist EXExtensionPointIdentifier \(Self.extensionPoint)); its targets: \(listing)"
                )
            }
            guard providers.count == 1 else {
                throw XcodeProjectError(
                    file: project.bundlePath,
                    "has \(providers.count) Contact Provider extension targets (\(providers.map(\.name).joined(separator: ", "))); choose one with --target NAME"
                )
            }
            chosen = providers[0]
        }
        target = chosen
        let settings = try BuildSettings(target: chosen, in: project)
        configuration = settings.configuration
        compilation = try SwiftCompilation(settings)
        var sources = try TargetSources(target: chosen, in: project)
        let (kept, unbuildable) = try LinuxAvailability.split(sources.swiftFiles)
        sources.swiftFiles = kept
        sources.leftOut = (sources.leftOut + unbuildable).sorted { $0.path < $1.path }
        guard !sources.swiftFiles.isEmpty else {
            throw XcodeProjectError(
                file: project.pbxprojPath, objectID: chosen.id,
                "target '\(chosen.name)' has no Swift file that builds here"
                    + (sources.leftOut.isEmpty
                        ? ""
                        : " (left out: \(sources.leftOut.map { "\($0.path): \($0.reason)" }.joined(separator: "; ")))"))
        }
        self.sources = sources
        appGroupIdentifier = try Self.appGroup(settings)
        entitlementsPath = settings.path("CODE_SIGN_ENTITLEMENTS")
        packages = try SwiftPackageDependency.of(chosen, in: project)
        let resolved = project.bundlePath + "/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
        inputPaths =
            [project.pbxprojPath] + settings.configurationFiles
            + [settings.path("INFOPLIST_FILE"), entitlementsPath].compactMap { $0 }
            + (FileManager.default.fileExists(atPath: resolved) ? [resolved] : [])
            + sources.swiftFiles.map(\.path) + sources.folders
    }

    /// The extension point `target`'s Info.plist declares (ExtensionKit's `EXAppExtensionAttributes`
    /// or NSExtension's), nil when it has no readable Info.plist.
    static func extensionPoint(of target: XcodeTarget, in project: XcodeProject) throws -> String? {
        let settings = try BuildSettings(target: target, in: project)
        var point: String?
        if let path = settings.path("INFOPLIST_FILE"), FileManager.default.fileExists(atPath: path) {
            let plist = try XMLPropertyList.dictionary(at: path)
            let attributes =
                (plist["EXAppExtensionAttributes"] as? [String: Any]) ?? (plist["NSExtension"] as? [String: Any])
            point =
                (attributes?["EXExtensionPointIdentifier"] as? String)
                ?? (attributes?["NSExtensionPointIdentifier"] as? String)
        }
        // A generated Info.plist states it as a build setting.
        return point ?? settings.string("INFOPLIST_KEY_EXAppExtensionAttributes_EXExtensionPointIdentifier")
            ?? settings.string("INFOPLIST_KEY_NSExtension_NSExtensionPointIdentifier")
    }

    /// The first App Group of the target's entitlements.
    static func appGroup(_ settings: BuildSettings) throws -> String? {
        guard let path = settings.path("CODE_SIGN_ENTITLEMENTS") else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            throw settings.error("CODE_SIGN_ENTITLEMENTS", "the entitlements file \(path) does not exist")
        }
        let entitlements = try XMLPropertyList.dictionary(at: path)
        guard let value = entitlements["com.apple.security.application-groups"] else { return nil }
        guard let groups = value as? [String] else {
            throw XcodeProjectError(file: path, "com.apple.security.application-groups is not a list of strings")
        }
        return groups.first
    }
}

/// Info.plist and entitlements files (XML or binary property lists).
enum XMLPropertyList {
    static func dictionary(at path: String) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw XcodeProjectError(file: path, "cannot be read")
        }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw XcodeProjectError(file: path, "is not a property list (\(error.localizedDescription))")
        }
        guard let dictionary = value as? [String: Any] else {
            throw XcodeProjectError(file: path, "is not a dictionary property list")
        }
        return dictionary
    }
}
