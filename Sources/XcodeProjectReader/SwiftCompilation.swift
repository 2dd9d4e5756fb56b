import Foundation

/// How a target's Swift compiles, from the build settings that change what compiles:
/// `SWIFT_VERSION`, `SWIFT_DEFAULT_ACTOR_ISOLATION`, `SWIFT_UPCOMING_FEATURE_*`,
/// `SWIFT_APPROACHABLE_CONCURRENCY` and `SWIFT_ACTIVE_COMPILATION_CONDITIONS`.
package struct SwiftCompilation: Sendable, Equatable {
    /// The language mode: "4", "4.2", "5" or "6".
    package var languageMode: String
    /// `MainActor` when the target isolates declarations to the main actor by default.
    package var defaultIsolation: String?
    /// Upcoming features, by their compiler names (`MemberImportVisibility`), sorted.
    package var upcomingFeatures: [String]
    /// Compilation conditions (`DEBUG`), in the project's order.
    package var conditions: [String]

    /// What Xcode 26 turns on for `SWIFT_APPROACHABLE_CONCURRENCY = YES`.
    package static let approachableConcurrency = [
        "DisableOutwardActorInference", "GlobalActorIsolatedTypesUsability", "InferIsolatedConformances",
        "InferSendableFromCaptures", "NonisolatedNonsendingByDefault",
    ]

    /// Xcode's setting suffixes and the features they name, where the name is not a plain
    /// conversion from upper snake case.
    static let featureNames: [String: String] = [
        "DISABLE_OUTWARD_ACTOR_ISOLATION": "DisableOutwardActorInference",
        "IMPORT_OBJC_FORWARD_DECLS": "ImportObjcForwardDeclarations",
        "BARE_SLASH_REGEX_LITERALS": "BareSlashRegexLiterals",
    ]

    /// Derives the compilation of the target whose settings are `settings`.
    package init(_ settings: BuildSettings) throws {
        let version = settings.string("SWIFT_VERSION") ?? "5.0"
        switch version.trimmingCharacters(in: .whitespaces) {
        case "4", "4.0": languageMode = "4"
        case "4.2": languageMode = "4.2"
        case "5", "5.0": languageMode = "5"
        case "6", "6.0": languageMode = "6"
        default:
            throw settings.error("SWIFT_VERSION", "'\(version)' is not a Swift language mode (4, 4.2, 5 or 6)")
        }
        switch settings.string("SWIFT_DEFAULT_ACTOR_ISOLATION") {
        case "MainActor": defaultIsolation = "MainActor"
        default: defaultIsolation = nil
        }
        var features: Set<String> = []
        for (key, _) in settings.values where key.hasPrefix("SWIFT_UPCOMING_FEATURE_") && settings.isOn(key) {
            let suffix = String(key.dropFirst("SWIFT_UPCOMING_FEATURE_".count))
            // A conditional setting (`…[sdk=iphoneos*]`) applies to a Mac's SDK, not here.
            guard !suffix.contains("[") else { continue }
            features.insert(Self.featureNames[suffix] ?? Self.camelCase(suffix))
        }
        if settings.isOn("SWIFT_APPROACHABLE_CONCURRENCY") { features.formUnion(Self.approachableConcurrency) }
        upcomingFeatures = features.sorted()
        conditions = (settings.values["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] ?? []).filter {
            !$0.isEmpty && !$0.hasPrefix("$(") && !$0.hasPrefix("${")
        }
    }

    /// `MEMBER_IMPORT_VISIBILITY` → `MemberImportVisibility`.
    static func camelCase(_ snake: String) -> String {
        snake.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }
}
