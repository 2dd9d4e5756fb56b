import Foundation

/// An Xcode project written for a test, file by file, as Xcode writes it (see `PBXProjWriter`):
/// classic groups and file references, synchronized folders with exception sets, targets with
/// Debug and Release configurations, Swift package references.
package struct XcodeFixture {
    /// The project's name (`NAME.xcodeproj`).
    package let name: String
    /// The pbxproj being built.
    package var pbxproj: PBXProjWriter
    /// Files of the project's folder, by path relative to it (written by `write(to:)`).
    package var files: [String: Data] = [:]
    /// Children of the main group.
    package var mainGroupChildren: [String] = []
    /// The project's own build settings (Debug and Release).
    package var projectSettings: [(String, PBXProjWriter.Value)] = [
        ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", .string("DEBUG $(inherited)")), ("SDKROOT", .string("iphoneos")),
    ]
    /// The project's configurations' `baseConfigurationReference` (an `.xcconfig` file reference id).
    package var projectConfigurationFile: String?
    /// Swift package references of the project.
    package var packageReferences: [String] = []
    private var targets: [String] = []

    /// A project named `name`, written with `objectVersion`.
    package init(name: String, objectVersion: Int = 77) {
        self.name = name
        pbxproj = PBXProjWriter(objectVersion: objectVersion)
    }

    /// Adds a file with `contents` at `path` (relative to the project folder).
    package mutating func file(_ path: String, _ contents: String) {
        files[path] = Data(contents.utf8)
    }

    /// A `PBXFileReference` (path relative to its group unless `sourceTree` says otherwise).
    package mutating func fileReference(_ path: String, sourceTree: String = "<group>", name: String? = nil) -> String {
        let type: String
        switch (path as NSString).pathExtension {
        case "swift": type = "sourcecode.swift"
        case "plist": type = "text.plist.xml"
        case "entitlements": type = "text.plist.entitlements"
        case "m": type = "sourcecode.c.objc"
        case "xcdatamodeld": type = "wrapper.xcdatamodel"
        default: type = "text"
        }
        var fields: [(String, PBXProjWriter.Value)] = [("lastKnownFileType", .string(type))]
        if let name { fields.append(("name", .string(name))) }
        fields += [("path", .string(path)), ("sourceTree", .string(sourceTree))]
        return pbxproj.add("PBXFileReference", comment: name ?? (path as NSString).lastPathComponent, fields)
    }

    /// A classic `PBXGroup` holding `children`, with a folder `path` (or only a `name`).
    package mutating func group(_ path: String?, name: String? = nil, children: [String]) -> String {
        var fields: [(String, PBXProjWriter.Value)] = [("children", .references(children))]
        if let name { fields.append(("name", .string(name))) }
        if let path { fields.append(("path", .string(path))) }
        fields.append(("sourceTree", .string("<group>")))
        return pbxproj.add("PBXGroup", comment: name ?? path, fields)
    }

    /// A `PBXFileSystemSynchronizedRootGroup` for folder `path`, with exception sets `exceptions`.
    package mutating func synchronizedFolder(_ path: String, exceptions: [String] = []) -> String {
        var fields: [(String, PBXProjWriter.Value)] = []
        if !exceptions.isEmpty { fields.append(("exceptions", .references(exceptions))) }
        fields += [("path", .string(path)), ("sourceTree", .string("<group>"))]
        return pbxproj.add("PBXFileSystemSynchronizedRootGroup", comment: path, fields)
    }

    /// A `PBXFileSystemSynchronizedBuildFileExceptionSet`: `files` of a folder, for `target` (an id
    /// from `pbxproj.reserve()`): removed if the target owns the folder, added if it does not.
    package mutating func exceptionSet(folder: String, target: String, targetName: String, files: [String]) -> String {
        pbxproj.add(
            "PBXFileSystemSynchronizedBuildFileExceptionSet",
            comment: "Exceptions for \"\(folder)\" folder in \"\(targetName)\" target",
            [("membershipExceptions", .strings(files)), ("target", .reference(target))])
    }

    /// A native target with its Sources phase (`sources`: file reference ids), synchronized folders,
    /// Debug and Release configurations of `settings` (based on the `.xcconfig` file reference
    /// `configurationFile`, if any), and package products `packages` (`XCSwiftPackageProductDependency`
    /// ids). `id` may be reserved beforehand.
    @discardableResult
    package mutating func target(
        id: String? = nil, _ name: String, productType: String, sources: [String] = [],
        synchronizedFolders: [String] = [], settings: [(String, PBXProjWriter.Value)] = [], packages: [String] = [],
        configurationFile: String? = nil
    ) -> String {
        let buildFiles = sources.map { reference in
            pbxproj.add(
                "PBXBuildFile", comment: "source in Sources", [("fileRef", .reference(reference))])
        }
        let phase = pbxproj.add(
            "PBXSourcesBuildPhase", comment: "Sources",
            [
                ("buildActionMask", .string("2147483647")), ("files", .references(buildFiles)),
                ("runOnlyForDeploymentPostprocessing", .string("0")),
            ])
        let configurations = ["Debug", "Release"].map { configuration in
            pbxproj.add(
                "XCBuildConfiguration", comment: configuration,
                (configurationFile.map { [("baseConfigurationReference", .reference($0))] } ?? []) + [
                    ("buildSettings", .dictionary(settings + [("PRODUCT_NAME", .string("$(TARGET_NAME)"))])),
                    ("name", .string(configuration)),
                ])
        }
        let list = pbxproj.add(
            "XCConfigurationList", comment: "Build configuration list for PBXNativeTarget \"\(name)\"",
            [
                ("buildConfigurations", .references(configurations)), ("defaultConfigurationIsVisible", .string("0")),
                ("defaultConfigurationName", .string("Release")),
            ])
        var fields: [(String, PBXProjWriter.Value)] = [
            ("buildConfigurationList", .reference(list)), ("buildPhases", .references([phase])),
            ("buildRules", .references([])), ("dependencies", .references([])),
        ]
        if !synchronizedFolders.isEmpty {
            fields.append(("fileSystemSynchronizedGroups", .references(synchronizedFolders)))
        }
        fields += [
            ("name", .string(name)), ("packageProductDependencies", .references(packages)),
            ("productName", .string(name)), ("productType", .string(productType)),
        ]
        let target = pbxproj.add(id: id, "PBXNativeTarget", comment: name, fields)
        targets.append(target)
        return target
    }

    /// An `XCRemoteSwiftPackageReference` at `url` (up to the next major of `version`) and a product of it.
    package mutating func remotePackage(_ url: String, version: String, product: String) -> (
        reference: String, product: String
    ) {
        let reference = pbxproj.add(
            "XCRemoteSwiftPackageReference",
            comment: "XCRemoteSwiftPackageReference \"\((url as NSString).lastPathComponent)\"",
            [
                ("repositoryURL", .string(url)),
                (
                    "requirement",
                    .dictionary([("kind", .string("upToNextMajorVersion")), ("minimumVersion", .string(version))])
                ),
            ])
        packageReferences.append(reference)
        return (reference, packageProduct(reference, product))
    }

    /// An `XCLocalSwiftPackageReference` at `relativePath` and a product of it.
    package mutating func localPackage(_ relativePath: String, product: String) -> String {
        let reference = pbxproj.add(
            "XCLocalSwiftPackageReference", comment: "XCLocalSwiftPackageReference \"\(relativePath)\"",
            [("relativePath", .string(relativePath))])
        packageReferences.append(reference)
        return packageProduct(reference, product)
    }

    private mutating func packageProduct(_ reference: String, _ product: String) -> String {
        pbxproj.add(
            "XCSwiftPackageProductDependency", comment: product,
            [("package", .reference(reference)), ("productName", .string(product))])
    }

    /// The finished pbxproj text (adds the main group, the project's configurations and the `PBXProject`).
    package mutating func pbxprojText() -> String {
        if pbxproj.rootID == nil {
            let main = pbxproj.add(
                "PBXGroup", [("children", .references(mainGroupChildren)), ("sourceTree", .string("<group>"))])
            let configurations = ["Debug", "Release"].map { configuration in
                pbxproj.add(
                    "XCBuildConfiguration", comment: configuration,
                    (projectConfigurationFile.map { [("baseConfigurationReference", .reference($0))] } ?? []) + [
                        ("buildSettings", .dictionary(projectSettings)), ("name", .string(configuration)),
                    ])
            }
            let list = pbxproj.add(
                "XCConfigurationList", comment: "Build configuration list for PBXProject \"\(name)\"",
                [
                    ("buildConfigurations", .references(configurations)),
                    ("defaultConfigurationIsVisible", .string("0")), ("defaultConfigurationName", .string("Release")),
                ])
            var fields: [(String, PBXProjWriter.Value)] = [
                ("attributes", .dictionary([("LastUpgradeCheck", .string("1620"))])),
                ("buildConfigurationList", .reference(list)), ("developmentRegion", .string("en")),
                ("mainGroup", .reference(main)),
            ]
            if !packageReferences.isEmpty { fields.append(("packageReferences", .references(packageReferences))) }
            fields += [
                ("projectDirPath", .string("")), ("projectRoot", .string("")), ("targets", .references(targets)),
            ]
            pbxproj.add("PBXProject", comment: "Project object", fields)
        }
        return pbxproj.text
    }

    /// Writes the project folder into `directory`; returns the `.xcodeproj` path.
    @discardableResult
    package mutating func write(to directory: String) throws -> String {
        let bundle = directory + "/\(name).xcodeproj"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try Data(pbxprojText().utf8).write(to: URL(fileURLWithPath: bundle + "/project.pbxproj"))
        for (path, data) in files {
            let full = directory + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
        }
        return bundle
    }

    /// An extension's Info.plist declaring `point` the ExtensionKit way (`EXAppExtensionAttributes`),
    /// or the NSExtension way.
    package static func infoPlist(extensionPoint point: String, extensionKit: Bool = true) -> String {
        let key = extensionKit ? "EXAppExtensionAttributes" : "NSExtension"
        let pointKey = extensionKit ? "EXExtensionPointIdentifier" : "NSExtensionPointIdentifier"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>\(key)</key>
            \t<dict>
            \t\t<key>\(pointKey)</key>
            \t\t<string>\(point)</string>
            \t</dict>
            </dict>
            </plist>

            """
    }

    /// An entitlements file granting the App Groups `groups`.
    package static func entitlements(appGroups groups: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>com.apple.security.application-groups</key>
        \t<array>
        \(groups.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
        \t</array>
        </dict>
        </plist>

        """
    }

    /// The Contact Provider extension point.
    package static let contactProviderPoint = "com.apple.contact.provider.extension"
    /// ExtensionKit's product type (Xcode 16's Contact Provider template).
    package static let extensionKitProduct = "com.apple.product-type.extensionkit-extension"
    /// The NSExtension product type (widgets, App Intents, older templates).
    package static let appExtensionProduct = "com.apple.product-type.app-extension"
}
