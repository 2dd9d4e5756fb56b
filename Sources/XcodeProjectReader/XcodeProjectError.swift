import Foundation

/// Why an Xcode project could not be read, built or turned into a package: one line that names the
/// file, and the place in it (line and column, or the pbxproj object id) where reading failed.
package struct XcodeProjectError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// The file the problem is in (a `project.pbxproj`, an Info.plist, an entitlements file, a folder).
    package let file: String
    /// The line (1-based) of a syntax error, if the problem is one.
    package let line: Int?
    /// The column (1-based, in characters) of a syntax error.
    package let column: Int?
    /// The pbxproj object the problem is in, if any (its 24-character id).
    package let objectID: String?
    /// What is wrong, and what to do about it.
    package let message: String

    /// A problem at `line`:`column` of `file` (a syntax error).
    package init(file: String, line: Int, column: Int, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.objectID = nil
        self.message = message
    }

    /// A problem in `file`, optionally in the pbxproj object `objectID`.
    package init(file: String, objectID: String? = nil, _ message: String) {
        self.file = file
        self.line = nil
        self.column = nil
        self.objectID = objectID
        self.message = message
    }

    package var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        if let objectID { return "\(file): object \(objectID): \(message)" }
        return "\(file): \(message)"
    }

    package var errorDescription: String? { description }
}
