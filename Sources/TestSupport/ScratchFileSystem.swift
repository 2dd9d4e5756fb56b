import Foundation
import Glibc

/// A small `tmpfs` mounted for one test: a disk that can be filled up or made read-only for real.
///
/// Mounting needs root (or `CAP_SYS_ADMIN`). Where it is not permitted, `mount` returns nil with
/// the reason, and the test skips with that reason — except under CI (`CI` set), where a skip
/// would hide a real gap, so the test must fail instead (`requireOrSkip`).
package final class ScratchFileSystem: @unchecked Sendable {
    /// The mount point (also a fine App Group directory: mode 0700, owned by this user).
    package let path: String
    private var mounted = true

    private init(path: String) {
        self.path = path
    }

    /// Mounts a `tmpfs` of `bytes` (rounded up to pages) on a new temporary directory.
    ///
    /// - Returns: the file system, or the reason mounting was not possible.
    package static func mount(bytes: Int) -> Result<ScratchFileSystem, MountRefused> {
        var template = Array((NSTemporaryDirectory() + "/cps-mnt-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            return .failure(MountRefused(reason: "mkdtemp failed: \(String(cString: strerror(errno)))"))
        }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let options = "size=\(bytes),mode=0700,uid=\(geteuid()),gid=\(getegid())"
        guard Glibc.mount("tmpfs", directory, "tmpfs", 0, options) == 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(directory)
            return .failure(MountRefused(reason: "mount -t tmpfs is not permitted here (\(reason))"))
        }
        return .success(ScratchFileSystem(path: directory))
    }

    /// Mounts one, or returns nil after recording why (a skip outside CI; a failure under CI).
    package static func requireOrSkip(bytes: Int) throws -> ScratchFileSystem? {
        switch mount(bytes: bytes) {
        case .success(let fileSystem):
            return fileSystem
        case .failure(let refused):
            if ProcessInfo.processInfo.environment["CI"] != nil { throw refused }
            print(
                "skipped: \(refused.reason) (this test needs a real small or read-only file system; it runs under CI as root)"
            )
            return nil
        }
    }

    /// Why a mount (or remount) was refused. Tests do not use `.enabled(if:)` for this on purpose:
    /// under CI a refused mount must fail, not disappear.
    package struct MountRefused: Error, CustomStringConvertible {
        /// Why.
        package let reason: String
        package var description: String { reason }
    }

    /// Makes the file system read-only (`mount -o remount,ro`).
    package func makeReadOnly() throws {
        guard Glibc.mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            throw MountRefused(reason: "remount read-only failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Makes it writable again.
    package func makeWritable() throws {
        guard Glibc.mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT), nil) == 0 else {
            throw MountRefused(reason: "remount read-write failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Fills the file system with a filler file, leaving about `leaving` bytes free; returns the filler's path.
    @discardableResult
    package func fill(leaving: Int = 0) throws -> String {
        let filler = path + "/.filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw MountRefused(reason: "cannot create \(filler): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        var size = 0
        while true {
            let n = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            size += n
        }
        _ = ftruncate(fd, off_t(max(0, size - leaving)))
        return filler
    }

    /// Frees the space taken by `fill`.
    package func unfill() {
        unlink(path + "/.filler")
    }

    /// Unmounts (lazily, so an open descriptor cannot keep it) and removes the mount point.
    package func unmount() {
        guard mounted else { return }
        mounted = false
        _ = umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }

    deinit {
        unmount()
    }
}
