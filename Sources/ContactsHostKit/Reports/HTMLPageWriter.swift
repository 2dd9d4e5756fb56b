import AppGroupStore
import Foundation
import Glibc

/// Writes a page in chunks to a temporary file beside its destination, then renames it into place:
/// `report --html` never holds the whole page (100,000 contacts' sections) in memory, and a reader of
/// the destination sees the old page or the new one, never half of one (issue 45).
package final class HTMLPageWriter {
    /// The destination.
    package let path: String
    private let temporary: String
    private let fd: Int32
    private var buffer = ""
    /// Bytes written so far (the page's size once ``finish()`` returns).
    package private(set) var bytesWritten = 0
    private static let chunk = 256 * 1024

    /// Starts a page for `path`: its directory must exist and be writable.
    package init(path: String) throws {
        self.path = path
        temporary = TemporaryName.path(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError.io(path: temporary, operation: "create", errno: errno) }
        self.fd = fd
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Appends `text`, writing out a chunk once enough has gathered.
    package func write(_ text: String) throws {
        buffer += text
        if buffer.utf8.count >= Self.chunk { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let data = Data(buffer.utf8)
        buffer = ""
        do {
            try SecureFile.writeAll(fd: fd, path: temporary, data: data)
        } catch {
            unlink(temporary)
            throw error
        }
        bytesWritten += data.count
    }

    /// Writes what is left and renames the page into place, durably.
    package func finish() throws {
        try flush()
        // Durable like every file the tools write: the data before the rename, the name after it.
        guard fsync(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError.io(path: temporary, operation: "fsync", errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError.io(path: path, operation: "rename", errno: code)
        }
        let directory = (path as NSString).deletingLastPathComponent
        try SecureFile.syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Removes the unfinished page (after a failure).
    package func abandon() {
        unlink(temporary)
    }
}
