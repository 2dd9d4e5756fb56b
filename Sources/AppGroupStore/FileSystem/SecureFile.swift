import Foundation
import Glibc

/// Low-level file operations with the App Group's safety rules built in.
///
/// - Paths are opened with `O_NOFOLLOW`, so a symbolic link planted in the App Group is refused.
/// - Every file and directory must belong to the current user; files are created `0600`,
///   directories `0700` (the mode is forced with `fchmod`, not left to the umask).
/// - Replacing a file is atomic and durable: temp file in the same directory, `fsync`,
///   `rename`, `fsync` of the directory (Foundation's `.atomic` skips the last step).
package enum SecureFile {
    /// Creates `path` (and missing parents) as directories owned by the user with mode 0700.
    ///
    /// A path that passes through a directory someone else controls in a shared sticky directory
    /// (`/tmp`) is refused first: see ``checkAncestors(of:)``.
    package static func ensureDirectory(_ path: String) throws {
        try checkAncestors(of: path)
        try createDirectory(path)
    }

    /// Refuses the App Group directory itself when it is a symbolic link (never followed: in a
    /// shared directory anyone could have planted it), not a directory, or owned by someone else;
    /// tightens group/other permissions to 0700; and checks its ancestors (``checkAncestors(of:)``).
    /// A missing directory is fine (it is created 0700 when first written).
    ///
    /// - Returns: Whether the directory exists.
    @discardableResult
    package static func checkAppGroupRoot(_ path: String) throws -> Bool {
        try checkAncestors(of: path)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw StoreError.io(path: path, operation: "lstat", errno: errno)
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw StoreError.unsafePath(
                path: path,
                reason:
                    "the App Group is a symbolic link; it is not followed (give the directory it points to, if it is yours)"
            )
        }
        try checkOwned(path, info, expectDirectory: true)
        if info.st_mode & 0o077 != 0 {
            // Other users must not read the address book or plant files in it.
            let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 {
                defer { close(fd) }
                if fchmod(fd, 0o700) != 0, errno != EROFS {
                    throw StoreError.unsafePath(
                        path: path,
                        reason:
                            "is accessible to other users (mode \(String(info.st_mode & 0o777, radix: 8))) and could not be made 0700"
                    )
                }
            }
        }
        return true
    }

    /// Refuses `path` if one of its existing components lies in a sticky directory (like `/tmp`)
    /// and belongs to another user (not this user, not root), symbolic links included: such a
    /// component was planted by that user, who then decides where our writes go.
    package static func checkAncestors(of path: String) throws {
        guard path.hasPrefix("/") else { return }
        var parent = "/"
        var parentInfo = stat()
        guard lstat(parent, &parentInfo) == 0 else { return }
        for component in path.split(separator: "/") {
            // String + String: with a Substring operand `+` is the generic one, whose first use costs
            // a protocol conformance lookup (issue 27).
            let current = (parent == "/" ? "" : parent) + "/" + String(component)
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            if parentInfo.st_mode & S_ISVTX != 0, info.st_uid != geteuid(), info.st_uid != 0 {
                let kind = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "a directory"
                throw StoreError.unsafePath(
                    path: current,
                    reason:
                        "is \(kind) owned by uid \(info.st_uid) in the shared sticky directory \(parent); refusing to use a path another user controls"
                )
            }
            // Past a symbolic link the rest of the path is the link target's: stop (its own checks apply).
            if info.st_mode & S_IFMT == S_IFLNK { return }
            parent = current
            parentInfo = info
        }
    }

    private static func createDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            try checkOwned(path, expectDirectory: true)
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, parent != "/" {
            var parentIsDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: parent, isDirectory: &parentIsDirectory) {
                try createDirectory(parent)
            }
        }
        try makeDirectory(path, in: parent.isEmpty ? "." : parent)
    }

    /// Makes the directory `path` in the existing directory `parent` (someone else may just have made
    /// it), durably, mode 0700, and checks that it is ours.
    static func makeDirectory(_ path: String, in parent: String) throws {
        if mkdir(path, 0o700) != 0 {
            guard errno == EEXIST else { throw StoreError.io(path: path, operation: "mkdir", errno: errno) }
        } else {
            // A new directory entry is durable only once its parent is fsynced (POSIX): without this a
            // power cut could take the directory, and every acknowledged file in it, away.
            try syncDirectory(parent)
        }
        _ = chmod(path, 0o700)
        try checkOwned(path, expectDirectory: true)
    }

    /// Refuses `path` unless it is owned by this user and of the expected type (never a symlink).
    package static func checkOwned(_ path: String, expectDirectory: Bool) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw StoreError.io(path: path, operation: "lstat", errno: errno)
        }
        try checkOwned(path, info, expectDirectory: expectDirectory)
    }

    /// ``checkOwned(_:expectDirectory:)`` with `path`'s `lstat` already in hand.
    package static func checkOwned(_ path: String, _ info: stat, expectDirectory: Bool) throws {
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw StoreError.unsafePath(path: path, reason: "is a symbolic link")
        }
        if expectDirectory, type != S_IFDIR {
            throw StoreError.unsafePath(path: path, reason: "is not a directory")
        }
        if info.st_uid != geteuid() {
            throw StoreError.unsafePath(
                path: path, reason: "is owned by uid \(info.st_uid), not by this user (uid \(geteuid()))")
        }
    }

    /// Opens an existing or new regular file for reading and writing, refusing links and foreign files.
    package static func open(_ path: String, flags: Int32, create: Bool) throws -> Int32 {
        var allFlags = flags | O_NOFOLLOW | O_CLOEXEC
        if create { allFlags |= O_CREAT }
        let fd = Glibc.open(path, allFlags, 0o600)
        guard fd >= 0 else { throw openFailure(path) }
        return try checkedOrClosed(fd, path: path)
    }

    /// The error for an `open` of `path` that just failed: a symbolic link (`O_NOFOLLOW`), or `errno`.
    private static func openFailure(_ path: String) -> StoreError {
        let code = errno
        if code == ELOOP { return .unsafePath(path: path, reason: "is a symbolic link") }
        return .io(path: path, operation: "open", errno: code)
    }

    /// `fd`, just opened at `path`, once ``checkRegularOwned(fd:path:)`` accepts it; closed when it does not.
    private static func checkedOrClosed(_ fd: Int32, path: String) throws -> Int32 {
        do {
            try checkRegularOwned(fd: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Checks that an open descriptor is a regular file owned by this user, and forces mode 0600.
    package static func checkRegularOwned(fd: Int32, path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw StoreError.io(path: path, operation: "fstat", errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError.unsafePath(path: path, reason: "is not a regular file")
        }
        guard info.st_uid == geteuid() else {
            throw StoreError.unsafePath(
                path: path, reason: "is owned by uid \(info.st_uid), not by this user (uid \(geteuid()))")
        }
        if info.st_mode & 0o777 != 0o600 {
            _ = fchmod(fd, 0o600)
        }
    }

    /// Reads a whole file, or returns nil when it does not exist.
    package static func readIfPresent(_ path: String) throws -> Data? {
        guard let fd = try openForReadingIfPresent(path) else { return nil }
        defer { close(fd) }
        return try readAll(fd: fd, path: path)
    }

    /// Opens an existing store file for reading, or returns nil when it does not exist: never
    /// through a symbolic link, and only a regular file this user owns. The caller closes it.
    static func openForReadingIfPresent(_ path: String) throws -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw openFailure(path)
        }
        return try checkedOrClosed(fd, path: path)
    }

    /// Reads from the current position of `fd` to the end.
    package static func readAll(fd: Int32, path: String, from offset: Int = 0) throws -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw StoreError.io(path: path, operation: "fstat", errno: errno)
        }
        return try read(fd: fd, path: path, offset: offset, count: max(Int(info.st_size) - offset, 0))
    }

    /// Reads up to `count` bytes at `offset`.
    package static func read(fd: Int32, path: String, offset: Int, count: Int) throws -> Data {
        var data = Data(count: count)
        let filled = try data.withUnsafeMutableBytes { try read(fd: fd, path: path, offset: offset, into: $0) }
        if filled < count { data.removeSubrange(filled..<count) }
        return data
    }

    /// Fills `buffer` from `offset` (retrying short reads and `EINTR`); returns how many bytes it
    /// read, fewer than the buffer holds only at the end of the file.
    static func read(fd: Int32, path: String, offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(path: path, operation: "read", errno: errno)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Writes all of `data` to `fd` at its current position (retrying short writes).
    package static func writeAll(fd: Int32, path: String, data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.io(path: path, operation: "write", errno: errno)
                }
                written += n
            }
        }
    }

    /// Flushes file data to stable storage.
    package static func sync(fd: Int32, path: String) throws {
        if Durability.isEphemeral(path) { return }
        guard fdatasync(fd) == 0 else {
            throw StoreError.io(path: path, operation: "fdatasync", errno: errno)
        }
    }

    /// Flushes a directory entry change (a create or rename) to stable storage.
    package static func syncDirectory(_ path: String) throws {
        if Durability.isEphemeral(path) { return }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "open directory", errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io(path: path, operation: "fsync directory", errno: errno) }
    }

    /// Atomically and durably replaces `path` with `data` (temp + fsync + rename + directory fsync).
    ///
    /// If anything fails the old file is untouched and the temp file is removed.
    package static func replace(_ path: String, with data: Data, durable: Bool = true) throws {
        try replace(path, durable: durable) { fd, temp in try writeAll(fd: fd, path: temp, data: data) }
    }

    /// Atomically and durably replaces `path` with what `write` writes to the temp file's
    /// descriptor, so large files are streamed instead of built in memory.
    package static func replace(_ path: String, durable: Bool = true, write: (Int32, String) throws -> Void) throws {
        let durable = durable && !Durability.isEphemeral(path)
        let directory = (path as NSString).deletingLastPathComponent
        let temp = TemporaryName.path(for: path)
        let fd = Glibc.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.io(path: temp, operation: "create", errno: errno) }
        do {
            _ = fchmod(fd, 0o600)
            try write(fd, temp)
            if durable, fsync(fd) != 0 { throw StoreError.io(path: temp, operation: "fsync", errno: errno) }
            close(fd)
        } catch {
            close(fd)
            unlink(temp)
            throw error
        }
        // Refuse to replace something that is not ours (a planted symlink is replaced, never followed,
        // by rename(2), but a foreign file is a sign of tampering worth reporting).
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK || info.st_uid != geteuid() || info.st_mode & S_IFMT != S_IFREG {
                unlink(temp)
                try checkOwned(path, expectDirectory: false)
                throw StoreError.unsafePath(path: path, reason: "is not a regular file")
            }
        }
        guard rename(temp, path) == 0 else {
            let code = errno
            unlink(temp)
            throw StoreError.io(path: path, operation: "rename", errno: code)
        }
        if durable { try syncDirectory(directory.isEmpty ? "." : directory) }
    }

    /// Durably creates a new file at `path` holding `data` (it must not exist yet), and makes its
    /// directory entry durable too.
    package static func create(_ path: String, with data: Data) throws {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "create", errno: errno) }
        do {
            try writeAll(fd: fd, path: path, data: data)
            if !Durability.isEphemeral(path), fsync(fd) != 0 {
                throw StoreError.io(path: path, operation: "fsync", errno: errno)
            }
            close(fd)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        try syncDirectory(parent(of: path))
    }

    /// The directory holding `path` (`.` for a bare name).
    static func parent(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// Removes temp files left behind by a crash in the middle of `replace` (see ``TemporaryName``).
    package static func sweepTemporaryFiles(in directory: String) {
        for path in TemporaryName.abandoned(in: directory) { unlink(path) }
    }
}
