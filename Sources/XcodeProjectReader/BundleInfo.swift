import Foundation

/// The Info.plist Xcode builds for a target (issue 40): its `INFOPLIST_FILE` with `$(…)` build
/// settings expanded, the `INFOPLIST_KEY_*` settings of a generated Info.plist, and the keys Xcode
/// always writes (`CFBundleIdentifier` from `PRODUCT_BUNDLE_IDENTIFIER`, `CFBundleName` from
/// `PRODUCT_NAME`, `CFBundleShortVersionString` from `MARKETING_VERSION`, `CFBundleVersion` from
/// `CURRENT_PROJECT_VERSION`, …). The file's own keys win over generated ones, as the file is what
/// the developer wrote.
package struct BundleInfo {
    /// The target.
    package let target: XcodeTarget
    /// Its settings (the configuration `ContactProviderTarget` reads).
    package let settings: BuildSettings
    /// The keys, values as property-list objects (`String`, `[String: Any]`, `[Any]`, `Bool`, …).
    package let dictionary: [String: Any]

    /// Reads `target`'s Info.plist as Xcode would build it.
    package init(target: XcodeTarget, in project: XcodeProject) throws {
        self.target = target
        let settings = try BuildSettings(target: target, in: project)
        self.settings = settings
        var info: [String: Any] = [:]
        if let path = settings.path("INFOPLIST_FILE") {
            guard FileManager.default.fileExists(atPath: path) else {
                throw settings.error("INFOPLIST_FILE", "the Info.plist \(path) does not exist")
            }
            let expand = settings.string("INFOPLIST_EXPAND_BUILD_SETTINGS")?.uppercased() != "NO"
            info = try XMLPropertyList.dictionary(at: path).mapValues {
                expand ? Self.expanded($0, settings: settings, target: target) : $0
            }
        }
        if settings.isOn("GENERATE_INFOPLIST_FILE") {
            for (key, words) in settings.values where key.hasPrefix(Self.generatedKeyPrefix) {
                let name = String(key.dropFirst(Self.generatedKeyPrefix.count))
                // `UILaunchScreen_Generation`, `…_iPad`: instructions to Xcode's generator or per-device
                // variants, not keys of the file.
                guard !name.contains("_"), info[name] == nil else { continue }
                info[name] = settings.expand(words.joined(separator: " "), targetName: target.name)
            }
        }
        let isApplication = target.productType == "com.apple.product-type.application"
        let standard: [(String, String?)] = [
            ("CFBundleIdentifier", settings.expandedValue("PRODUCT_BUNDLE_IDENTIFIER", targetName: target.name)),
            ("CFBundleName", settings.expandedValue("PRODUCT_NAME", targetName: target.name) ?? target.name),
            ("CFBundleExecutable", settings.expandedValue("EXECUTABLE_NAME", targetName: target.name)),
            ("CFBundleShortVersionString", settings.expandedValue("MARKETING_VERSION", targetName: target.name)),
            ("CFBundleVersion", settings.expandedValue("CURRENT_PROJECT_VERSION", targetName: target.name)),
            ("CFBundlePackageType", isApplication ? "APPL" : (target.isExtension ? "XPC!" : nil)),
            ("CFBundleInfoDictionaryVersion", "6.0"),
            (
                "CFBundleDevelopmentRegion",
                settings.expandedValue("DEVELOPMENT_LANGUAGE", targetName: target.name) ?? "en"
            ),
        ]
        for (key, value) in standard where info[key] == nil {
            if let value, !value.isEmpty { info[key] = value }
        }
        dictionary = info
    }

    /// `INFOPLIST_KEY_`: the build settings a generated Info.plist takes its keys from.
    package static let generatedKeyPrefix = "INFOPLIST_KEY_"

    /// `CFBundleIdentifier`, if the target has one.
    package var bundleIdentifier: String? { dictionary["CFBundleIdentifier"] as? String }

    /// `CFBundleDisplayName`, else `CFBundleName`: what the system shows for the bundle.
    package var displayName: String? {
        (dictionary["CFBundleDisplayName"] as? String) ?? (dictionary["CFBundleName"] as? String)
    }

    /// The app that embeds `extensionTarget`: the application target that depends on it, else the
    /// project's only application target; nil when there is none.
    package static func containingApp(of extensionTarget: XcodeTarget, in project: XcodeProject) throws -> XcodeTarget?
    {
        let applications = try project.targets().filter { $0.productType == "com.apple.product-type.application" }
        for application in applications {
            for dependency in try project.references("dependencies", of: application.id)
            where try project.string("target", of: dependency) == extensionTarget.id {
                return application
            }
        }
        return applications.count == 1 ? applications[0] : nil
    }

    /// Refuses an extension whose identifier is not prefixed by its app's, as Xcode refuses to embed it.
    package func checkPrefixed(by app: BundleInfo) throws {
        guard let own = bundleIdentifier, let parent = app.bundleIdentifier else { return }
        if let problem = Self.prefixProblem(embedded: own, parent: parent, parentName: app.target.name) {
            throw settings.error("PRODUCT_BUNDLE_IDENTIFIER", problem)
        }
    }

    /// Xcode's refusal of an extension identifier `embedded` not prefixed by its app's `parent` (named
    /// `parentName`), with both identifiers and the one that would do; nil when it is prefixed. Shared
    /// by projects and by `enable`'s identity options.
    package static func prefixProblem(embedded: String, parent: String, parentName: String) -> String? {
        guard !embedded.hasPrefix(parent + ".") else { return nil }
        return
            "Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier (embedded: \(embedded), parent app \(parentName): \(parent)); make it \(parent).\(embedded.split(separator: ".").last ?? "Provider") as Xcode requires"
    }

    /// `value` with `$(…)` references expanded in every string it holds.
    static func expanded(_ value: Any, settings: BuildSettings, target: XcodeTarget) -> Any {
        switch value {
        case let text as String: return settings.expand(text, targetName: target.name)
        case let dictionary as [String: Any]:
            return dictionary.mapValues { expanded($0, settings: settings, target: target) }
        case let array as [Any]: return array.map { expanded($0, settings: settings, target: target) }
        default: return value
        }
    }
}

extension BuildSettings {
    /// The settings Xcode defines for every target that a project rarely sets itself.
    func builtIn(_ name: String, targetName: String) -> String? {
        switch name {
        case "TARGET_NAME": return targetName
        case "PRODUCT_NAME": return "$(TARGET_NAME)"
        case "EXECUTABLE_NAME", "PRODUCT_MODULE_NAME": return "$(PRODUCT_NAME)"
        case "SRCROOT", "PROJECT_DIR", "SOURCE_ROOT": return sourceRoot
        case "DEVELOPMENT_LANGUAGE": return "en"
        default: return nil
        }
    }

    /// Setting `name` with its references expanded; nil when neither set nor built in.
    package func expandedValue(_ name: String, targetName: String) -> String? {
        guard let raw = string(name) ?? builtIn(name, targetName: targetName) else { return nil }
        return expand(raw, targetName: targetName)
    }

    /// `text` with every `$(NAME)`, `${NAME}` and `$(NAME:modifier)` replaced by the setting's value
    /// (`rfc1034identifier`, `identifier`, `lower`, `upper` modifiers as Xcode applies them); an
    /// unknown name becomes empty, as in Xcode; a reference cycle stops after 16 rounds.
    package func expand(_ text: String, targetName: String, depth: Int = 0) -> String {
        guard depth < 16, text.contains("$") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            guard character == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" else {
                result.append(character)
                index = next
                continue
            }
            let close: Character = text[next] == "(" ? ")" : "}"
            guard let end = text[next...].firstIndex(of: close) else {
                result.append(contentsOf: text[index...])
                break
            }
            let reference = text[text.index(after: next)..<end]
            let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts.first ?? ""
            var value = expand(
                string(name) ?? builtIn(name, targetName: targetName) ?? "", targetName: targetName, depth: depth + 1)
            if parts.count == 2 { value = Self.apply(parts[1], to: value) }
            result += value
            index = text.index(after: end)
        }
        return result
    }

    /// Xcode's `:rfc1034identifier`, `:identifier`, `:lower`, `:upper` (others leave the value).
    static func apply(_ modifier: String, to value: String) -> String {
        func mapped(_ keep: (Unicode.Scalar) -> Bool, _ replacement: Character) -> String {
            String(value.unicodeScalars.map { keep($0) ? Character($0) : replacement })
        }
        let alphanumeric: (Unicode.Scalar) -> Bool = {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
        switch modifier {
        case "rfc1034identifier": return mapped({ alphanumeric($0) || $0 == "-" || $0 == "." }, "-")
        case "c99extidentifier", "identifier": return mapped({ alphanumeric($0) || $0 == "_" }, "_")
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        default: return value
        }
    }
}
