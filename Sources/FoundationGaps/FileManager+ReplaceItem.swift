import Foundation
import Glibc

/// `FileManager.replaceItemAt(_:withItemAt:…)` that works on Linux.
///
/// With this toolchain's Foundation (swift-corelibs-foundation before its upstream fix), the method
/// always throws "The file doesn't exist", and the target is gone afterwards: an app-side writer that
/// saves atomically this way loses its file on the second save. These overloads are found before
/// Foundation's whenever a file imports `Contacts` or `ContactProvider` (which re-export this module),
/// because they match the common calls more closely: the two-argument call, and a call with a
/// `backupItemName` string. A call passing `backupItemName: nil` explicitly still reaches
/// Foundation's (the porting table of the ContactProvider catalog's "Porting from Xcode" says so).
///
/// The semantics are Apple's: `newItemURL` is moved over `originalItemURL` in one `rename(2)` (atomic:
/// a reader sees the old or the new file, never neither), the directory entry is made durable, and the
/// URL of the resulting item is returned. With a backup name, the original is first kept under that
/// name in its directory, and removed afterwards unless `.withoutDeletingBackupItem` is given.
extension FileManager {
    /// Replaces the item at `originalItemURL` with the one at `newItemURL` (which is moved), atomically.
    @discardableResult
    public func replaceItemAt(_ originalItemURL: URL, withItemAt newItemURL: URL) throws -> URL? {
        try ReplaceItem.replace(originalItemURL, with: newItemURL, backupItemName: nil, options: [])
    }

    /// Replaces the item at `originalItemURL` with the one at `newItemURL`, keeping the original as
    /// `backupItemName` in its directory until the replacement is done (or for good, with
    /// `.withoutDeletingBackupItem`).
    @discardableResult
    public func replaceItemAt(
        _ originalItemURL: URL, withItemAt newItemURL: URL, backupItemName: String,
        options: FileManager.ItemReplacementOptions = []
    ) throws -> URL? {
        try ReplaceItem.replace(originalItemURL, with: newItemURL, backupItemName: backupItemName, options: options)
    }
}

/// The implementation of the overloads above.
enum ReplaceItem {
    static func replace(
        _ original: URL, with replacement: URL, backupItemName: String?, options: FileManager.ItemReplacementOptions
    ) throws -> URL {
        let target = original.standardizedFileURL.path
        let source = replacement.standardizedFileURL.path
        var info = stat()
        guard lstat(source, &info) == 0 else { throw error(errno, replacement) }
        var backup: String?
        if let backupItemName, lstat(target, &info) == 0 {
            let path = (target as NSString).deletingLastPathComponent + "/" + backupItemName
            unlink(path)
            guard link(target, path) == 0 else { throw error(errno, original) }
            backup = path
        }
        guard rename(source, target) == 0 else { throw error(errno, original) }
        let directory = (target as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
        if let backup, !options.contains(.withoutDeletingBackupItem) { unlink(backup) }
        return original
    }

    /// The `CocoaError` Foundation throws for `code` at `url`.
    private static func error(_ code: Int32, _ url: URL) -> CocoaError {
        let posix = POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        let kind: CocoaError.Code =
            code == ENOENT
            ? .fileNoSuchFile : code == EACCES || code == EPERM ? .fileWriteNoPermission : .fileWriteUnknown
        return CocoaError(
            kind, userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: posix, NSFilePathErrorKey: url.path])
    }
}
