import Foundation

/// Type-checks a Swift source file against this package's built modules (the Apple-shaped surface a
/// provider imports), the way a provider target would compile it: the negative compile tests use it
/// to show that what Xcode refuses is refused here too, with the same error.
package enum TypeCheck {
    /// The errors `swiftc -typecheck` reports for `source`, each line as the compiler prints it.
    ///
    /// - Parameters:
    ///   - source: The file's text.
    ///   - swiftVersion: The language mode (`6` or `5`).
    ///   - upcomingFeatures: Upcoming features to enable (e.g. `MemberImportVisibility`).
    package static func errors(_ source: String, swiftVersion: String = "6", upcomingFeatures: [String] = []) throws
        -> [String]
    {
        try errors(files: [source], swiftVersion: swiftVersion, upcomingFeatures: upcomingFeatures)
    }

    /// The errors of one target made of `files` (so one file can import a module another file does not).
    package static func errors(files: [String], swiftVersion: String = "6", upcomingFeatures: [String] = []) throws
        -> [String]
    {
        let directory = NSTemporaryDirectory() + "cps-typecheck-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var paths: [String] = []
        for (index, source) in files.enumerated() {
            let path = directory + "/File\(index + 1).swift"
            try Data(source.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let features = upcomingFeatures.flatMap { ["-enable-upcoming-feature", $0] }
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["swiftc", "-typecheck", "-swift-version", swiftVersion, "-I", BuiltProducts.directory + "/Modules"]
                + features + paths)
        // `path:line:column: error: …`
        return result.stderr.split(separator: "\n").filter { $0.hasPrefix(directory) && $0.contains(" error: ") }
            .map { String($0.dropFirst(directory.count + 1)) }
    }
}
