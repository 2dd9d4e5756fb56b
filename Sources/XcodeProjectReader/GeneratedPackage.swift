import Foundation

/// A SwiftPM package that builds an Xcode project's extension target here: a manifest, and a
/// target folder of symbolic links to the project's own files (SwiftPM compiles only sources inside
/// a target's folder; links keep the files where they are, and are rebuilt from the pbxproj at
/// every generation, so files added to or removed from the Xcode target follow).
package struct GeneratedPackage: Sendable {
    /// The modules of the simulator the extension imports as it would on iOS.
    package static let simulatorProducts = [
        "ContactProvider", "Contacts", "ExtensionFoundation", "Combine", "OSLog", "os",
    ]

    /// The target it builds.
    package let target: ContactProviderTarget
    /// The folder of the simulator package (a path dependency).
    package let simulatorRoot: String
    /// The executable product's and module's name (the target's name, made a valid identifier).
    package let productName: String
    /// The folder the package is written in, when its paths are written relative to it (a package a
    /// user commits beside the project: no absolute path of this machine in it); nil: absolute.
    package let relativeTo: String?

    /// A package for `target`, depending on the simulator package at `simulatorRoot`; with
    /// `relativeTo` (the folder it is written in), every path it holds (the simulator, local
    /// packages, the links to the project's files, the project named in its header) is relative to
    /// that folder, so the package can be committed and checked out elsewhere with the same layout.
    package init(target: ContactProviderTarget, simulatorRoot: String, relativeTo: String? = nil) {
        self.target = target
        self.simulatorRoot = simulatorRoot
        self.relativeTo = relativeTo
        productName = Self.identifier(target.target.name)
    }

    /// `path` as the package writes it: relative to `relativeTo` (from `folder` below it, for a
    /// link inside the package), or as is.
    func written(_ path: String, from folder: String = "") -> String {
        guard let base = relativeTo else { return path }
        return Self.relativePath(path, from: folder.isEmpty ? base : base + "/" + folder)
    }

    /// The path of absolute `path` from absolute folder `base` (`../../Project/File.swift`).
    static func relativePath(_ path: String, from base: String) -> String {
        let target = (path as NSString).standardizingPath.split(separator: "/")
        let start = (base as NSString).standardizingPath.split(separator: "/")
        var common = 0
        while common < min(target.count, start.count) && target[common] == start[common] { common += 1 }
        let parts = Array(repeating: "..", count: start.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// `My Provider: Contacts` → `My_Provider__Contacts`; a leading digit gets an underscore.
    static func identifier(_ name: String) -> String {
        var result = String(
            name.unicodeScalars.map { scalar in
                (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"))
                    ? Character(scalar) : "_"
            })
        if result.first?.isNumber ?? true { result = "_" + result }
        return result
    }

    /// Where, inside the target folder, the link to `path` goes: its path below the project's folder,
    /// or below `_outside/` with the full path for files elsewhere.
    func linkPath(for path: String) -> String {
        let root = target.project.sourceRoot + "/"
        if path.hasPrefix(root) { return String(path.dropFirst(root.count)) }
        return "_outside" + path
    }

    /// The package's `Package.swift`; with a test target when the folder holds the user's tests.
    package func manifest(includingTests hasTests: Bool = false) -> String {
        let simulator = SwiftPackageDependency.identity(of: simulatorRoot)
        let compilation = target.compilation
        var settings: [String] = []
        switch compilation.languageMode {
        case "4": settings.append(".swiftLanguageMode(.v4)")
        case "4.2": settings.append(".swiftLanguageMode(.v4_2)")
        case "5": settings.append(".swiftLanguageMode(.v5)")
        default: break
        }
        if compilation.defaultIsolation == "MainActor" { settings.append(".defaultIsolation(MainActor.self)") }
        settings += compilation.upcomingFeatures.map { ".enableUpcomingFeature(\(literal($0)))" }
        settings += compilation.conditions.map { ".define(\(literal($0)))" }
        var dependencies = [".package(path: \(literal(written(simulatorRoot))))"]
        var products = Self.simulatorProducts.map { ".product(name: \(literal($0)), package: \(literal(simulator)))" }
        for package in target.packages {
            switch (package.source, package.requirement) {
            case (.local(let path), _): dependencies.append(".package(path: \(literal(written(path))))")
            case (.remote(let url), let requirement):
                let pin: String
                switch requirement {
                case .exact(let version)?: pin = "exact: \(literal(version))"
                case .revision(let revision)?: pin = "revision: \(literal(revision))"
                case .branch(let branch)?: pin = "branch: \(literal(branch))"
                case .from(let version)?: pin = "from: \(literal(version))"
                case .upToNextMinor(let version)?: pin = ".upToNextMinor(from: \(literal(version)))"
                case .range(let low, let high)?: pin = "\(literal(low))..<\(literal(high))"
                case nil: pin = "from: \"0.0.0\""
                }
                dependencies.append(".package(url: \(literal(url)), \(pin))")
            }
            products += package.products.map { ".product(name: \(literal($0)), package: \(literal(package.identity)))" }
        }
        let toolsVersion = compilation.defaultIsolation == nil ? "6.0" : "6.2"
        let testTarget = """
            // Your own tests (with the conformance library) go in Tests/\(productName)Tests; this file keeps them.
                    .testTarget(
                        name: \(literal(productName + "Tests")),
                        dependencies: [
                            \(literal(productName)),
                            .product(name: "ContactProviderConformance", package: \(literal(simulator))),
                        ]),
            """
        return """
            // swift-tools-version:\(toolsVersion)
            // Generated by contacts-host from \(written(target.project.bundlePath)), target "\(target.target.name)"
            // (\(target.configuration) settings). Do not edit: run `contacts-host package` again after
            // changing the Xcode project; `enable` and `conformance --xcode-project` regenerate it themselves.
            import PackageDescription

            let package = Package(
                name: \(literal(productName)),
                products: [.executable(name: \(literal(productName)), targets: [\(literal(productName))])],
                dependencies: [
                    \(dependencies.joined(separator: ",\n        "))
                ],
                targets: [
                    .executableTarget(
                        name: \(literal(productName)),
                        dependencies: [
                            \(products.joined(separator: ",\n                "))
                        ],
                        path: "Sources/\(productName)",
                        swiftSettings: [\(settings.joined(separator: ", "))]),
                    \(hasTests ? testTarget : "")
                ]
            )

            """
    }

    /// A Swift string literal of `text` (a `String`'s debug description is one, every character escaped
    /// as Swift needs it; the kit's library reproduce lines use the same).
    private func literal(_ text: String) -> String {
        String(reflecting: text)
    }

    /// Writes the package into `directory` (created if needed): the manifest, and the target folder
    /// rebuilt from scratch (links only; the project's files are never written). The user's
    /// `Tests/<Product>Tests` folder, if any, is kept and becomes a test target.
    package func write(to directory: String) throws {
        let manager = FileManager.default
        let bundle = target.project.bundlePath
        if directory == bundle || directory.hasPrefix(bundle + "/") {
            throw XcodeProjectError(file: directory, "is inside the Xcode project \(bundle); choose another --output")
        }
        for file in target.sources.swiftFiles where directory.hasPrefix(file.path + "/") || directory == file.path {
            throw XcodeProjectError(file: directory, "would overwrite the project's file \(file.path)")
        }
        do {
            try manager.createDirectory(atPath: directory + "/Sources", withIntermediateDirectories: true)
            // Built beside the old folder, then swapped in: a failure leaves the previous package whole.
            let final = directory + "/Sources/" + productName
            let staging = directory + "/Sources/.\(productName).new"
            try? manager.removeItem(atPath: staging)
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
            for file in target.sources.swiftFiles {
                let relativeLink = linkPath(for: file.path)
                let link = staging + "/" + relativeLink
                try manager.createDirectory(
                    atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                // The link's folder once swapped in: Sources/<Product>/<its folders>.
                let folder = ("Sources/\(productName)/" + relativeLink as NSString).deletingLastPathComponent
                try manager.createSymbolicLink(atPath: link, withDestinationPath: written(file.path, from: folder))
            }
            var isDirectory: ObjCBool = false
            let hasTests =
                manager.fileExists(atPath: directory + "/Tests/\(productName)Tests", isDirectory: &isDirectory)
                && isDirectory.boolValue
            let manifestPath = directory + "/Package.swift"
            let data = Data(manifest(includingTests: hasTests).utf8)
            // Unchanged manifests are not rewritten, so SwiftPM does not re-resolve for nothing.
            if manager.contents(atPath: manifestPath) != data {
                try data.write(to: URL(fileURLWithPath: manifestPath), options: .atomic)
            }
            if manager.fileExists(atPath: final) {
                let old = directory + "/Sources/.\(productName).old"
                try? manager.removeItem(atPath: old)
                try manager.moveItem(atPath: final, toPath: old)
                try manager.moveItem(atPath: staging, toPath: final)
                try manager.removeItem(atPath: old)
            } else {
                try manager.moveItem(atPath: staging, toPath: final)
            }
        } catch let error as XcodeProjectError {
            throw error
        } catch {
            throw XcodeProjectError(file: directory, "cannot write the package (\(error.localizedDescription))")
        }
    }
}
