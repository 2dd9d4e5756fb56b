import Foundation
import Glibc

/// Everything that can go wrong reading or writing files in an App Group.
///
/// Public, so that a provider that reads the App Group database (``ProviderDataSource``) can match
/// what its throwing calls throw: a damaged file (`malformed`) is not an expired page.
///
/// Every case names the file (and, where there is one, the line) so a user can find the
/// problem; none of them is ever answered by overwriting the file that could not be read.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file exists but its contents are not what this format allows.
    case malformed(path: String, line: Int, reason: String)
    /// The file declares a format version this build cannot read.
    case unsupportedFormat(path: String, version: Int)
    /// A system call failed.
    case io(path: String, operation: String, errno: Int32)
    /// A path is refused because it is a symbolic link, owned by someone else, or of the wrong type.
    case unsafePath(path: String, reason: String)
    /// No contact has this identifier.
    case notFound(identifier: String)
    /// A contact with this identifier already exists.
    case duplicateIdentifier(String)
    /// The identifier cannot be stored (empty, too long, or containing control characters).
    case invalidIdentifier(String, reason: String)
    /// A lock could not be taken in time (`seconds`); `holder` names the process holding it, when known.
    case lockTimeout(path: String, seconds: Double, holder: String?)

    public var description: String {
        switch self {
        case .malformed(let path, let line, let reason):
            return "\(path):\(line): malformed: \(reason)"
        case .unsupportedFormat(let path, let version):
            return "\(path): unsupported format version \(version) (this build reads version \(StoreFormat.version))"
        case .io(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)))"
        case .unsafePath(let path, let reason):
            return "\(path): refused: \(reason)"
        case .notFound(let identifier):
            return "no contact with identifier '\(identifier)'"
        case .duplicateIdentifier(let identifier):
            return "a contact with identifier '\(identifier)' already exists"
        case .invalidIdentifier(let identifier, let reason):
            return "invalid identifier '\(identifier.debugDescription.dropFirst().dropLast())': \(reason)"
        case .lockTimeout(let path, let seconds, let holder):
            return "\(path): timed out after \(FileLock.format(seconds)) s waiting for the lock, held by "
                + "\(holder ?? "another process"); end or resume that process, or wait longer with "
                + "\(FileLock.timeoutVariable)=SECONDS"
        }
    }
}

/// The on-disk format version written into every file header.
package enum StoreFormat {
    /// The version this build writes and reads.
    package static let version = 1
}
