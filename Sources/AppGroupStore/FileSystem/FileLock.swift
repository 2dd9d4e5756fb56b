import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A cross-process advisory lock on a lock file (`flock(2)`).
///
/// `flock` belongs to the open file description, so closing some other descriptor of the same file
/// never drops it (the classic `fcntl` footgun). Every participant (host, provider, system) takes it.
public final class FileLock {
    /// Shared (readers) or exclusive (writers).
    public enum Mode: Sendable {
        case shared
        case exclusive
    }

    /// The lock file's path.
    public let path: String
    private let fd: Int32
    private var held = false

    /// Opens (creating if needed) the lock file at `path`.
    public init(path: String) throws {
        self.path = path
        fd = try SecureFile.open(path, flags: O_RDWR, create: true)
    }

    deinit {
        close(fd)
    }

    /// Blocks until the lock is held.
    public func lock(_ mode: Mode) throws {
        while flock(fd, mode == .shared ? LOCK_SH : LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw StoreError.io(path: path, operation: "flock", errno: errno)
        }
        held = true
    }

    /// Takes the lock if nobody else holds it; returns false otherwise.
    public func tryLock(_ mode: Mode) throws -> Bool {
        if flock(fd, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 {
            held = true
            return true
        }
        if errno == EWOULDBLOCK { return false }
        throw StoreError.io(path: path, operation: "flock", errno: errno)
    }

    /// Releases the lock.
    public func unlock() {
        if held {
            flock(fd, LOCK_UN)
            held = false
        }
    }

    /// Replaces the lock file's contents (e.g. the holder's pid, for `status`).
    public func writeContents(_ text: String) {
        _ = ftruncate(fd, 0)
        let bytes = Array(text.utf8)
        _ = pwrite(fd, bytes, bytes.count, 0)
    }

    /// Reads a lock file's contents without locking it.
    public static func contents(of path: String) -> String? {
        guard let data = try? SecureFile.readIfPresent(path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `body` while holding the lock.
    public func withLock<T>(_ mode: Mode, _ body: () throws -> T) throws -> T {
        try lock(mode)
        defer { unlock() }
        return try body()
    }
}
