import Foundation

/// A `.xcodeproj` read as Xcode reads it: the objects of its `project.pbxproj`, by id.
///
/// Every object version is accepted (54 to 100 and later): the reader looks only at the keys it
/// needs and names the object id when one is missing or of the wrong kind, so a project written by a
/// newer Xcode is refused only where it really differs.
package struct XcodeProject: Sendable {
    /// The `.xcodeproj` directory, absolute and standardized.
    package let bundlePath: String
    /// Its `project.pbxproj`.
    package let pbxprojPath: String
    /// The folder the project's relative paths start from (`SOURCE_ROOT`, `$(SRCROOT)`).
    package let sourceRoot: String
    /// The `objectVersion` the file declares (informational: never refused).
    package let objectVersion: String?
    /// The objects, by id.
    package let objects: [String: [String: PropertyListValue]]
    /// The `PBXProject` object's id.
    package let rootID: String

    /// Reads the project at `path` (a `.xcodeproj` directory).
    package init(path: String) throws {
        let absolute =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let bundle = (absolute as NSString).standardizingPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: bundle, isDirectory: &isDirectory) else {
            throw XcodeProjectError(file: path, "no such Xcode project")
        }
        guard isDirectory.boolValue, bundle.hasSuffix(".xcodeproj") else {
            throw XcodeProjectError(file: path, "not an Xcode project (expected a folder named NAME.xcodeproj)")
        }
        let pbxproj = bundle + "/project.pbxproj"
        guard let data = FileManager.default.contents(atPath: pbxproj) else {
            throw XcodeProjectError(file: pbxproj, "cannot be read (missing, or not readable)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw XcodeProjectError(file: pbxproj, "is not UTF-8 text")
        }
        try self.init(text: text, pbxprojPath: pbxproj, bundlePath: bundle)
    }

    /// Reads a pbxproj's `text` as if it were the file at `pbxprojPath` inside `bundlePath`.
    package init(text: String, pbxprojPath: String, bundlePath: String) throws {
        guard case .dictionary(let top) = try PropertyListText.parse(text, file: pbxprojPath) else {
            throw XcodeProjectError(file: pbxprojPath, "the top-level value is not a dictionary")
        }
        guard case .dictionary(let objects)? = top["objects"] else {
            throw XcodeProjectError(file: pbxprojPath, "has no 'objects' dictionary")
        }
        guard let rootID = top["rootObject"]?.string else {
            throw XcodeProjectError(file: pbxprojPath, "has no 'rootObject'")
        }
        var typed: [String: [String: PropertyListValue]] = [:]
        for (id, value) in objects {
            guard case .dictionary(let object) = value, object["isa"]?.string != nil else {
                throw XcodeProjectError(file: pbxprojPath, objectID: id, "is not an object with an 'isa'")
            }
            typed[id] = object
        }
        self.bundlePath = bundlePath
        self.pbxprojPath = pbxprojPath
        self.objects = typed
        self.rootID = rootID
        self.objectVersion = top["objectVersion"]?.string
        let projectDirectory = (bundlePath as NSString).deletingLastPathComponent
        guard let root = typed[rootID] else {
            throw XcodeProjectError(file: pbxprojPath, objectID: rootID, "the rootObject does not exist")
        }
        guard root["isa"]?.string == "PBXProject" else {
            throw XcodeProjectError(file: pbxprojPath, objectID: rootID, "the rootObject is not a PBXProject")
        }
        let directoryPath = root["projectDirPath"]?.string ?? ""
        if directoryPath.isEmpty {
            sourceRoot = projectDirectory
        } else if directoryPath.hasPrefix("/") {
            sourceRoot = (directoryPath as NSString).standardizingPath
        } else {
            sourceRoot = ((projectDirectory + "/" + directoryPath) as NSString).standardizingPath
        }
    }

    /// The project's name (the bundle's name without `.xcodeproj`).
    package var name: String {
        ((bundlePath as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    // MARK: Typed access, with errors that name the object

    /// The object `id`, which `owner`'s `key` refers to.
    package func object(_ id: String, referencedBy owner: String, key: String) throws -> [String: PropertyListValue] {
        guard let object = objects[id] else {
            throw XcodeProjectError(
                file: pbxprojPath, objectID: owner, "its '\(key)' refers to \(id), which does not exist")
        }
        return object
    }

    /// The `isa` of object `id` ("?" when unknown).
    package func isa(_ id: String) -> String { objects[id]?["isa"]?.string ?? "?" }

    /// The string `key` of object `id`, nil when absent; throws when it is not a string.
    package func string(_ key: String, of id: String) throws -> String? {
        guard let value = objects[id]?[key] else { return nil }
        guard let string = value.string else {
            throw XcodeProjectError(file: pbxprojPath, objectID: id, "(\(isa(id))) '\(key)' is not a string")
        }
        return string
    }

    /// The string `key` of object `id`; throws when absent.
    package func requiredString(_ key: String, of id: String) throws -> String {
        guard let value = try string(key, of: id) else {
            throw XcodeProjectError(file: pbxprojPath, objectID: id, "(\(isa(id))) has no '\(key)'")
        }
        return value
    }

    /// The ids listed in the array `key` of object `id` (empty when absent).
    package func references(_ key: String, of id: String) throws -> [String] {
        guard let value = objects[id]?[key] else { return [] }
        guard let array = value.array else {
            throw XcodeProjectError(file: pbxprojPath, objectID: id, "(\(isa(id))) '\(key)' is not a list")
        }
        return try array.map { element in
            guard let string = element.string else {
                throw XcodeProjectError(
                    file: pbxprojPath, objectID: id, "(\(isa(id))) '\(key)' holds something that is not an id")
            }
            return string
        }
    }

    /// The strings listed in the array `key` of object `id` (empty when absent).
    package func strings(_ key: String, of id: String) throws -> [String] { try references(key, of: id) }

    /// The dictionary `key` of object `id` (empty when absent).
    package func dictionary(_ key: String, of id: String) throws -> [String: PropertyListValue] {
        guard let value = objects[id]?[key] else { return [:] }
        guard let dictionary = value.dictionary else {
            throw XcodeProjectError(file: pbxprojPath, objectID: id, "(\(isa(id))) '\(key)' is not a dictionary")
        }
        return dictionary
    }

    /// The project's targets (`PBXNativeTarget` and the others), in the project's order.
    package func targets() throws -> [XcodeTarget] {
        try references("targets", of: rootID).map { id in
            _ = try object(id, referencedBy: rootID, key: "targets")
            return XcodeTarget(
                id: id, name: try requiredString("name", of: id), isa: isa(id),
                productType: try string("productType", of: id))
        }
    }
}

/// One target of an Xcode project.
package struct XcodeTarget: Sendable, Equatable {
    /// Its object id.
    package let id: String
    /// Its name (as in Xcode's target list).
    package let name: String
    /// `PBXNativeTarget`, `PBXAggregateTarget`, `PBXLegacyTarget`.
    package let isa: String
    /// `com.apple.product-type.…`, for native targets.
    package let productType: String?

    /// Whether the product is an app extension (NSExtension) or an ExtensionKit extension.
    package var isExtension: Bool {
        guard let productType else { return false }
        return productType.hasPrefix("com.apple.product-type.app-extension")
            || productType.hasPrefix("com.apple.product-type.extensionkit-extension")
    }

    /// The product type without its common prefix, for messages ("application", "app-extension").
    package var kind: String {
        guard let productType else { return isa }
        return productType.replacingOccurrences(of: "com.apple.product-type.", with: "")
    }
}
