import Foundation

/// The build settings of one target in one configuration: the target's values over the project's,
/// as Xcode resolves them (xcconfig files and other targets are not read).
public struct BuildSettings: Sendable {
    /// The configuration read (`Debug`, else the list's default, else its first).
    public let configuration: String
    /// The resolved values, `$(inherited)` replaced by the project's value.
    public let values: [String: [String]]
    /// The project folder, for `$(SRCROOT)`-style references.
    let sourceRoot: String
    let targetName: String
    /// The pbxproj and the target's configuration object, named in errors about a value.
    let pbxprojPath: String
    let configurationID: String?

    /// Reads `target`'s settings in `project`.
    public init(target: XcodeTarget, in project: XcodeProject) throws {
        let targetList = try project.requiredString("buildConfigurationList", of: target.id)
        _ = try project.object(targetList, referencedBy: target.id, key: "buildConfigurationList")
        let (name, targetValues, configurationID) = try Self.configuration(of: targetList, in: project, named: nil)
        var projectValues: [String: PropertyListValue] = [:]
        if let projectList = try project.string("buildConfigurationList", of: project.rootID) {
            _ = try project.object(projectList, referencedBy: project.rootID, key: "buildConfigurationList")
            projectValues = try Self.configuration(of: projectList, in: project, named: name).values
        }
        var merged: [String: [String]] = [:]
        for (key, value) in projectValues { merged[key] = Self.words(value) }
        for (key, value) in targetValues {
            let words = Self.words(value)
            let inherited = merged[key] ?? []
            merged[key] = words.flatMap { $0 == "$(inherited)" || $0 == "${inherited}" ? inherited : [$0] }
        }
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

    /// A setting's words: a list as is, a string split at white space (quotes kept together).
    private static func words(_ value: PropertyListValue) -> [String] {
        switch value {
        case .array(let elements): return elements.compactMap(\.string)
        case .string(let text):
            var words: [String] = []
            var current = ""
            var quoted = false
            for character in text {
                if character == "\"" {
                    quoted.toggle()
                } else if character.isWhitespace && !quoted {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { words.append(current) }
            return words.isEmpty ? [""] : words
        default: return []
        }
    }

    /// The value of `key` as one string (words joined by a space), nil when unset.
    public func string(_ key: String) -> String? {
        values[key].map { $0.joined(separator: " ") }
    }

    /// An error about the value of `key`, naming the pbxproj and the configuration object.
    func error(_ key: String, _ message: String) -> XcodeProjectError {
        XcodeProjectError(
            file: pbxprojPath, objectID: configurationID, "(\(configuration) of \(targetName)) \(key): \(message)")
    }

    /// Whether `key` is `YES`.
    public func isOn(_ key: String) -> Bool { string(key)?.uppercased() == "YES" }

    /// A path setting (`CODE_SIGN_ENTITLEMENTS`, `INFOPLIST_FILE`) made absolute: `$(SRCROOT)`,
    /// `$(PROJECT_DIR)`, `$(TARGET_NAME)` replaced, relative paths taken from the project folder.
    public func path(_ key: String) -> String? {
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
