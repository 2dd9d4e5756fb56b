import Foundation

/// Which Swift files of a target can build on Linux: a file that imports a framework only Apple's
/// platforms have, outside `#if canImport(…)`, is left out and reported with the framework's name.
enum LinuxAvailability {
    /// Frameworks that exist only on Apple's platforms and that an extension target's files import.
    static let appleOnly: Set<String> = [
        "SwiftUI", "UIKit", "AppKit", "WidgetKit", "ContactsUI", "AppIntents", "SwiftData", "CoreData",
        "Security", "MapKit", "CoreLocation", "Charts", "StoreKit", "UserNotifications", "CloudKit", "WatchKit",
        "ActivityKit", "Intents", "IntentsUI", "MessageUI", "SafariServices", "AuthenticationServices", "Photos",
        "PhotosUI", "AVFoundation", "CoreGraphics", "QuartzCore", "CoreImage", "LocalAuthentication", "EventKit",
        "EventKitUI", "HealthKit", "TipKit", "CryptoKit", "Network",
    ]

    /// Splits `files` into those that build here and those left out (with the reason).
    static func split(_ files: [TargetSourceFile]) throws -> (kept: [TargetSourceFile], leftOut: [LeftOutFile]) {
        var kept: [TargetSourceFile] = []
        var leftOut: [LeftOutFile] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw XcodeProjectError(file: file.path, "is listed in the target (\(file.origin)) but cannot be read")
            }
            let modules = unconditionalImports(String(decoding: data, as: UTF8.self)).filter(appleOnly.contains)
            if modules.isEmpty {
                kept.append(file)
            } else {
                leftOut.append(
                    LeftOutFile(
                        path: file.path,
                        reason:
                            "imports \(modules.joined(separator: ", ")), which Linux does not have (wrap it in #if canImport(\(modules[0])) to keep the file)"
                    ))
            }
        }
        return (kept, leftOut)
    }

    /// The modules `source` imports outside any `#if` block.
    static func unconditionalImports(_ source: String) -> [String] {
        var depth = 0
        var modules: [String] = []
        var inBlockComment = false
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if inBlockComment {
                guard let end = line.range(of: "*/") else { continue }
                line = String(line[end.upperBound...]).trimmingCharacters(in: .whitespaces)
                inBlockComment = false
            }
            if line.hasPrefix("/*") && !line.contains("*/") {
                inBlockComment = true
                continue
            }
            if line.hasPrefix("#if") {
                depth += 1
            } else if line.hasPrefix("#endif") {
                depth = max(0, depth - 1)
            } else if depth == 0, let module = importedModule(line) {
                modules.append(module)
            }
        }
        return modules
    }

    /// `import X`, `@testable import X.Y`, `package import struct X.Y` → `X`.
    private static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first,
            first.hasPrefix("@")
                || [
                    "public", "internal", "package", "private",
                    "fileprivate",
                ].contains(first)
        { words.removeFirst() }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }
}
