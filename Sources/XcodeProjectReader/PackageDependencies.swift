import Foundation

/// A Swift package the extension target uses (`packageProductDependencies`), with the version
/// Xcode pinned in `Package.resolved`.
package struct SwiftPackageDependency: Sendable, Equatable {
    /// Where the package comes from.
    package enum Source: Sendable, Equatable {
        /// `XCRemoteSwiftPackageReference`: a repository URL.
        case remote(url: String)
        /// `XCLocalSwiftPackageReference`: a folder, absolute.
        case local(path: String)
    }

    /// How the manifest pins a remote package.
    package enum Requirement: Sendable, Equatable {
        /// `Package.resolved`'s version (or `exactVersion`).
        case exact(String)
        /// `Package.resolved`'s revision (or a `revision` requirement).
        case revision(String)
        /// `branch` without a pin.
        case branch(String)
        /// `upToNextMajorVersion` without a pin.
        case from(String)
        /// `upToNextMinorVersion` without a pin.
        case upToNextMinor(String)
        /// `versionRange` without a pin.
        case range(String, String)
    }

    /// The package's source.
    package let source: Source
    /// Its requirement (remote packages only).
    package let requirement: Requirement?
    /// Its identity (the last path component, lowercased, without `.git`): what `.product(package:)` names.
    package let identity: String
    /// The products the target uses.
    package var products: [String]

    /// The packages `target` of `project` depends on; other targets' packages are not read.
    package static func of(_ target: XcodeTarget, in project: XcodeProject) throws -> [SwiftPackageDependency] {
        let pins = try PackagePins(project: project)
        var byReference: [String: SwiftPackageDependency] = [:]
        var order: [String] = []
        for id in try project.references("packageProductDependencies", of: target.id) {
            _ = try project.object(id, referencedBy: target.id, key: "packageProductDependencies")
            let product = try project.requiredString("productName", of: id)
            // Xcode writes a plugin as `plugin:Name`; a build plugin does not change what compiles here.
            if product.hasPrefix("plugin:") { continue }
            guard let reference = try project.string("package", of: id) else {
                throw XcodeProjectError(
                    file: project.pbxprojPath, objectID: id,
                    "(XCSwiftPackageProductDependency \(product)) names no package: a local package added as a folder reference is not supported; add it with Add Package Dependencies › Add Local…"
                )
            }
            _ = try project.object(reference, referencedBy: id, key: "package")
            if byReference[reference] != nil {
                byReference[reference]?.products.append(product)
                continue
            }
            let dependency: SwiftPackageDependency
            switch project.isa(reference) {
            case "XCRemoteSwiftPackageReference":
                let url = try project.requiredString("repositoryURL", of: reference)
                let requirement =
                    try pins.requirement(for: url)
                    ?? (try Self.requirement(try project.dictionary("requirement", of: reference), reference, project))
                dependency = SwiftPackageDependency(
                    source: .remote(url: url), requirement: requirement, identity: Self.identity(of: url),
                    products: [product])
            case "XCLocalSwiftPackageReference":
                let relative = try project.requiredString("relativePath", of: reference)
                let path =
                    relative.hasPrefix("/")
                    ? relative : ((project.sourceRoot + "/" + relative) as NSString).standardizingPath
                dependency = SwiftPackageDependency(
                    source: .local(path: path), requirement: nil, identity: Self.identity(of: path),
                    products: [product])
            default:
                throw XcodeProjectError(
                    file: project.pbxprojPath, objectID: reference,
                    "(\(project.isa(reference))) is not a Swift package reference this reader knows")
            }
            byReference[reference] = dependency
            order.append(reference)
        }
        return order.compactMap { byReference[$0] }
    }

    /// The requirement the pbxproj states, for a package `Package.resolved` does not pin.
    private static func requirement(
        _ requirement: [String: PropertyListValue], _ id: String, _ project: XcodeProject
    ) throws -> Requirement {
        let kind = requirement["kind"]?.string
        func value(_ key: String) throws -> String {
            guard let text = requirement[key]?.string else {
                throw XcodeProjectError(
                    file: project.pbxprojPath, objectID: id, "its requirement (\(kind ?? "?")) has no '\(key)'")
            }
            return text
        }
        switch kind {
        case "exactVersion": return .exact(try value("version"))
        case "revision": return .revision(try value("revision"))
        case "branch": return .branch(try value("branch"))
        case "upToNextMajorVersion": return .from(try value("minimumVersion"))
        case "upToNextMinorVersion": return .upToNextMinor(try value("minimumVersion"))
        case "versionRange": return .range(try value("minimumVersion"), try value("maximumVersion"))
        default:
            throw XcodeProjectError(
                file: project.pbxprojPath, objectID: id, "its requirement kind '\(kind ?? "none")' is not known")
        }
    }

    /// SwiftPM's identity of a URL or folder.
    static func identity(of location: String) -> String {
        var name = (location as NSString).lastPathComponent
        if name.hasSuffix(".git") { name = String(name.dropLast(4)) }
        return name.lowercased()
    }
}

/// The pins of the project's `Package.resolved` (versions 1 to 3 of its format).
struct PackagePins {
    private var pins: [String: SwiftPackageDependency.Requirement] = [:]

    init(project: XcodeProject) throws {
        let path = project.bundlePath + "/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
        guard let data = FileManager.default.contents(atPath: path) else { return }
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw XcodeProjectError(file: path, "is not JSON")
        }
        let list = (top["pins"] as? [[String: Any]]) ?? ((top["object"] as? [String: Any])?["pins"] as? [[String: Any]])
        for pin in list ?? [] {
            guard let location = (pin["location"] ?? pin["repositoryURL"]) as? String,
                let state = pin["state"] as? [String: Any]
            else { continue }
            if let version = state["version"] as? String {
                pins[Self.key(location)] = .exact(version)
            } else if let revision = state["revision"] as? String {
                pins[Self.key(location)] = .revision(revision)
            }
        }
    }

    func requirement(for url: String) throws -> SwiftPackageDependency.Requirement? { pins[Self.key(url)] }

    /// URLs compared as SwiftPM does: case, a trailing `/` and `.git` ignored.
    private static func key(_ url: String) -> String {
        var text = url.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        return text
    }
}
