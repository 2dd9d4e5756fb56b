import Foundation

/// One file a target compiles, as the project lists it.
package struct TargetSourceFile: Sendable, Equatable, Hashable {
    /// The file's absolute path.
    package let path: String
    /// How the target gets it: a build file of its Sources phase, a synchronized folder it owns, or a
    /// membership exception that adds one file of another target's folder.
    package let origin: String
}

/// A file of the target that is not compiled here, and why.
package struct LeftOutFile: Sendable, Equatable {
    /// The file's path (absolute when the project gives one).
    package let path: String
    /// Why it is left out, in words a user can act on.
    package let reason: String
}

/// The files of a target, from its Sources build phase (classic groups and file references) and its
/// synchronized folders (Xcode 16+, with their membership exceptions).
package struct TargetSources: Sendable {
    /// Swift files to compile, sorted by path.
    package var swiftFiles: [TargetSourceFile] = []
    /// Files the target would compile on a Mac that cannot be compiled here.
    package var leftOut: [LeftOutFile] = []
    /// The folders of its synchronized folders, walked (a file added or removed there changes the
    /// target: a folder's modification time says so).
    package var folders: [String] = []

    /// Reads the sources of `target` in `project`.
    package init(target: XcodeTarget, in project: XcodeProject) throws {
        let paths = try GroupPaths(project: project)
        var files: [String: String] = [:]
        var unbuildable: [String: String] = [:]
        func consider(_ path: String, origin: String) {
            switch SourceKind(path: path) {
            case .swift: files[path] = files[path] ?? origin
            case .unbuildable(let reason): unbuildable[path] = reason
            case .resource: break
            }
        }
        // Classic: the PBXBuildFiles of the Sources phase, each naming a PBXFileReference.
        for phase in try project.references("buildPhases", of: target.id) {
            _ = try project.object(phase, referencedBy: target.id, key: "buildPhases")
            guard project.isa(phase) == "PBXSourcesBuildPhase" else { continue }
            for buildFile in try project.references("files", of: phase) {
                _ = try project.object(buildFile, referencedBy: phase, key: "files")
                guard let reference = try project.string("fileRef", of: buildFile) else { continue }
                let object = try project.object(reference, referencedBy: buildFile, key: "fileRef")
                let kind = object["isa"]?.string ?? "?"
                guard kind == "PBXFileReference" else {
                    // PBXVariantGroup (localized files), PBXReferenceProxy (another project's product).
                    unbuildable[try project.string("name", of: reference) ?? reference] =
                        "a \(kind) in the Sources phase (object \(reference)) is not compiled here"
                    continue
                }
                guard let path = try paths.path(of: reference) else {
                    unbuildable[try project.string("path", of: reference) ?? reference] =
                        "its sourceTree '\(try project.string("sourceTree", of: reference) ?? "?")' (object \(reference)) is outside the project"
                    continue
                }
                consider(path, origin: "Sources phase")
            }
        }
        // Synchronized folders the target owns: every file inside, minus the exceptions for it.
        let owned = Set(try project.references("fileSystemSynchronizedGroups", of: target.id))
        for folder in owned {
            _ = try project.object(folder, referencedBy: target.id, key: "fileSystemSynchronizedGroups")
            guard let root = try paths.path(of: folder) else { continue }
            let excluded = try Self.exceptions(of: folder, for: target, in: project)
            let walked = try Self.files(under: root, folder: folder, project: project)
            folders += walked.folders
            for relative in walked.files
            where !excluded.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) {
                consider(root + "/" + relative, origin: "synchronized folder")
            }
        }
        // Folders of other targets: only the files an exception set adds to this one.
        for (id, object) in project.objects.sorted(by: { $0.key < $1.key })
        where object["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" && !owned.contains(id) {
            let added = try Self.exceptions(of: id, for: target, in: project)
            guard !added.isEmpty, let root = try paths.path(of: id) else { continue }
            for relative in added { consider(root + "/" + relative, origin: "membership exception") }
        }
        swiftFiles = files.map { TargetSourceFile(path: $0.key, origin: $0.value) }.sorted { $0.path < $1.path }
        leftOut = unbuildable.map { LeftOutFile(path: $0.key, reason: $0.value) }.sorted { $0.path < $1.path }
    }

    /// The folder-relative paths the exception sets of synchronized folder `folder` list for `target`.
    private static func exceptions(of folder: String, for target: XcodeTarget, in project: XcodeProject) throws
        -> [String]
    {
        var paths: [String] = []
        for set in try project.references("exceptions", of: folder) {
            _ = try project.object(set, referencedBy: folder, key: "exceptions")
            switch project.isa(set) {
            case "PBXFileSystemSynchronizedBuildFileExceptionSet":
                guard try project.string("target", of: set) == target.id else { continue }
            case "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet":
                // Per build phase (headers, copy files): only the target's own Sources phase matters.
                guard let phase = try project.string("buildPhase", of: set),
                    try project.references("buildPhases", of: target.id).contains(phase),
                    project.isa(phase) == "PBXSourcesBuildPhase"
                else { continue }
            default: continue
            }
            paths += try project.strings("membershipExceptions", of: set)
        }
        return paths
    }

    /// Every file under `root`, relative to it, as Xcode's synchronized folder sees them: hidden files
    /// skipped, bundles such as `.xcassets` taken as one item.
    private static func files(under root: String, folder: String, project: XcodeProject) throws
        -> (files: [String], folders: [String])
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw XcodeProjectError(
                file: project.pbxprojPath, objectID: folder,
                "(PBXFileSystemSynchronizedRootGroup) its folder \(root) does not exist")
        }
        var result: [String] = []
        var folders: [String] = []
        func walk(_ relative: String) throws {
            let directory = relative.isEmpty ? root : root + "/" + relative
            folders.append(directory)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var childIsDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: root + "/" + child, isDirectory: &childIsDirectory)
                if childIsDirectory.boolValue && (name as NSString).pathExtension.isEmpty {
                    try walk(child)
                } else {
                    result.append(child)
                }
            }
        }
        try walk("")
        return (result, folders)
    }
}

/// What a file in a target is, by its name.
enum SourceKind: Equatable {
    case swift
    case unbuildable(String)
    case resource

    init(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "swift": self = .swift
        case "m", "mm": self = .unbuildable("Objective-C is not compiled here (Swift sources only)")
        case "c", "cc", "cpp", "cxx", "s": self = .unbuildable("C and C++ sources are not compiled here (Swift only)")
        case "metal": self = .unbuildable("Metal shaders need Apple's Metal compiler")
        case "intentdefinition":
            self = .unbuildable("Xcode generates Swift from Intents definitions only on a Mac")
        case "xcdatamodeld", "xcdatamodel", "xcmappingmodel":
            self = .unbuildable("Core Data models are compiled by Xcode only on a Mac")
        case "mlmodel", "mlpackage": self = .unbuildable("Core ML models are compiled by Xcode only on a Mac")
        case "storyboard", "xib": self = .unbuildable("Interface Builder files need UIKit")
        default: self = .resource
        }
    }
}

/// Absolute paths of a project's groups, file references and synchronized folders (the `sourceTree`
/// chains of `PBXGroup` parents).
struct GroupPaths {
    let project: XcodeProject
    private var parents: [String: String] = [:]

    init(project: XcodeProject) throws {
        self.project = project
        for (id, object) in project.objects {
            guard let kind = object["isa"]?.string,
                kind == "PBXGroup" || kind == "PBXVariantGroup" || kind == "XCVersionGroup"
            else { continue }
            for child in try project.references("children", of: id) { parents[child] = id }
        }
    }

    /// The absolute path of item `id`; nil when its `sourceTree` is outside the project (a product,
    /// the SDK, the developer folder).
    func path(of id: String) throws -> String? {
        var seen: Set<String> = []
        return try path(of: id, seen: &seen)
    }

    private func path(of id: String, seen: inout Set<String>) throws -> String? {
        guard seen.insert(id).inserted else {
            throw XcodeProjectError(file: project.pbxprojPath, objectID: id, "its groups contain each other")
        }
        let own = try project.string("path", of: id)
        let tree = try project.string("sourceTree", of: id) ?? "<group>"
        let base: String
        switch tree {
        case "<group>":
            if let parent = parents[id] {
                guard let parentPath = try path(of: parent, seen: &seen) else { return nil }
                base = parentPath
            } else {
                base = project.sourceRoot
            }
        case "SOURCE_ROOT": base = project.sourceRoot
        case "<absolute>": base = "/"
        default: return nil
        }
        guard let own, !own.isEmpty else { return base }
        if own.hasPrefix("/") { return (own as NSString).standardizingPath }
        return ((base + "/" + own) as NSString).standardizingPath
    }
}
