import Foundation

/// The build settings of one target in one configuration, as Xcode resolves them, lowest first: the
/// project's `.xcconfig` (its configuration's `baseConfigurationReference`), the project's settings,
/// the target's `.xcconfig`, the target's settings; `$(inherited)` at each level is the level below.
/// Other targets' settings are never read.
package struct BuildSettings: Sendable {
    /// The configuration read (`Debug`, else the list's default, else its first).
    package let configuration: String
    /// The resolved values, `$(inherited)` replaced by the project's value.
    package let values: [String: [String]]
    /// The `.xcconfig` files read (the project's and the target's, with their `#include`s).
    package let configurationFiles: [String]
    /// The project folder, for `$(SRCROOT)`-style references.
    let sourceRoot: String
    let targetName: String
    /// The pbxproj and the target's configuration object, named in errors about a value.
    let pbxprojPath: String
    let configurationID: String?

    /// Reads `target`'s settings in `project`.
    package init(target: XcodeTarget, in project: XcodeProject) throws {
        let targetList = try project.requiredString("buildConfigurationList", of: target.id)
        _ = try project.object(targetList, referencedBy: target.id, key: "buildConfigurationList")
        let (name, targetValues, configurationID) = try Self.configuration(of: targetList, in: project, named: nil)
        var projectValues: [String: PropertyListValue] = [:]
        var projectConfigurationID: String?
        if let projectList = try project.string("buildConfigurationList", of: project.rootID) {
            _ = try project.object(projectList, referencedBy: project.rootID, key: "buildConfigurationList")
            let projectConfiguration = try Self.configuration(of: projectList, in: project, named: name)
            projectValues = projectConfiguration.values
            projectConfigurationID = projectConfiguration.id
        }
        let paths = try GroupPaths(project: project)
        var merged: [String: [String]] = [:]
        func apply(_ level: [String: [String]]) {
            for (key, words) in level {
                merged[key] = words.flatMap { PropertyListWords.isInherited($0) ? merged[key] ?? [] : [$0] }
            }
        }
        let projectFile = try Self.configurationFile(of: projectConfigurationID, named: name, in: project, paths: paths)
        apply(projectFile?.values ?? [:])
        apply(projectValues.mapValues(Self.words))
        let targetFile = try Self.configurationFile(of: configurationID, named: name, in: project, paths: paths)
        apply(targetFile?.values ?? [:])
        apply(targetValues.mapValues(Self.words))
        configurationFiles = (projectFile?.files ?? []) + (targetFile?.files ?? [])
        configuration = name
        values = merged
        sourceRoot = project.sourceRoot
        targetName = target.name
        pbxprojPath = project.pbxprojPath
        self.configurationID = configurationID
    }

    /// The settings of the configuration named `wanted` (or `Debug`, the default, the first) of list `list`.
    private static func configuration(of list: String, in project: XcodeProject, named wanted: String?) throws
        -> (name: String, values: [String: PropertyListValue], id: String?)
    {
        let ids = try project.references("buildConfigurations", of: list)
        var byName: [String: String] = [:]
        for id in ids {
            _ = try project.object(id, referencedBy: list, key: "buildConfigurations")
            byName[try project.requiredString("name", of: id)] = id
        }
        let fallback = try project.string("defaultConfigurationName", of: list)
        let candidates = [wanted, "Debug", fallback].compactMap { $0 }
        guard let name = candidates.first(where: { byName[$0] != nil }) ?? byName.keys.sorted().first,
            let id = byName[name]
        else {
            if let wanted { return (wanted, [:], nil) }
            throw XcodeProjectError(file: project.pbxprojPath, objectID: list, "(XCConfigurationList) is empty")
        }
        return (name, try project.dictionary("buildSettings", of: id), id)
    }

    /// The `.xcconfig` of configuration `id`, read, if it has one: a `baseConfigurationReference`
    /// (a file reference), or Xcode 16's `baseConfigurationReferenceAnchor` (a synchronized folder) with
    /// `baseConfigurationReferenceRelativePath`.
    private static func configurationFile(
        of id: String?, named name: String, in project: XcodeProject, paths: GroupPaths
    ) throws -> ConfigurationFile? {
        guard let id else { return nil }
        let path: String?
        if let reference = try project.string("baseConfigurationReference", of: id) {
            _ = try project.object(reference, referencedBy: id, key: "baseConfigurationReference")
            path = try paths.path(of: reference)
        } else if let anchor = try project.string("baseConfigurationReferenceAnchor", of: id),
            let relative = try project.string("baseConfigurationReferenceRelativePath", of: id)
        {
            _ = try project.object(anchor, referencedBy: id, key: "baseConfigurationReferenceAnchor")
            path = try paths.path(of: anchor).map { ($0 as NSString).appendingPathComponent(relative) }
        } else {
            return nil
        }
        guard let path else {
            throw XcodeProjectError(
                file: project.pbxprojPath, objectID: id, "(XCBuildConfiguration) its xcconfig is outside the project")
        }
        return try ConfigurationFile(path: path, configuration: name, pbxprojPath: project.pbxprojPath, reference: id)
    }

    /// A setting's words: a list as is, a string split at white space (quotes kept together).
    private static func words(_ value: PropertyListValue) -> [String] {
        switch value {
        case .array(let elements): return elements.compactMap(\.string)
        case .string(let text): return PropertyListWords.split(text)
        default: return []
        }
    }

    /// The value of `key` as one string (words joined by a space), nil when unset.
    package func string(_ key: String) -> String? {
        values[key].map { $0.joined(separator: " ") }
    }

    /// An error about the value of `key`, naming the pbxproj and the configuration object.
    func error(_ key: String, _ message: String) -> XcodeProjectError {
        XcodeProjectError(
            file: pbxprojPath, objectID: configurationID, "(\(configuration) of \(targetName)) \(key): \(message)")
    }

    /// Whether `key` is `YES`.
    package func isOn(_ key: String) -> Bool { string(key)?.uppercased() == "YES" }

    /// A path setting (`CODE_SIGN_ENTITLEMENTS`, `INFOPLIST_FILE`) made absolute: `$(SRCROOT)`,
    /// `$(PROJECT_DIR)`, `$(TARGET_NAME)` replaced, relative paths taken from the project folder.
    package func path(_ key: String) -> String? {
        guard var value = string(key), !value.isEmpty else { return nil }
        for name in ["SRCROOT", "PROJECT_DIR", "SOURCE_ROOT"] {
            value = value.replacingOccurrences(of: "$(\(name))", with: sourceRoot)
                .replacingOccurrences(of: "${\(name)}", with: sourceRoot)
        }
        for name in ["TARGET_NAME", "PRODUCT_NAME"] {
            value = value.replacingOccurrences(of: "$(\(name))", with: targetName)
                .replacingOccurrences(of: "${\(name)}", with: targetName)
        }
        let absolute = value.hasPrefix("/") ? value : sourceRoot + "/" + value
        return (absolute as NSString).standardizingPath
    }
}
