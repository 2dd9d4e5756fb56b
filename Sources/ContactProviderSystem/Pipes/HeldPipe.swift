import AppGroupStore
import Foundation
import Glibc

/// The FIFOs a waiting process reads (a host's reply pipe, a watcher's), and how anyone else tells a
/// live one from one left behind.
///
/// Such a pipe is stale when nobody holds it: never by its age alone (a wall clock a minute ahead
/// made every fresh pipe look abandoned), and never by a probe a live reader can observe (opening it
/// to write and closing it again hangs up on the waiting host: "the provider exited before
/// answering"). For "nobody holds it" to be the whole truth, the host makes the FIFO under a temporary
/// name, opens it, and only then links it to `replies/<id>.fifo`: a final-named reply pipe is held
/// from the moment it is visible until its host removes it (issue 42, items 10 and 11). A temporary
/// name belongs to its writer for as long as that process lives (``TemporaryName``).
package enum HeldPipe {
    /// Makes the FIFO `path` (mode 0600), held for reading before it appears under that name; returns
    /// the descriptor, non-blocking. A reply pipe is opened read-only, so the writer's exit shows as a
    /// hang-up; a watcher's `readWrite`, holding a writer itself so that no writer's exit does.
    package static func createHeld(at path: String, readWrite: Bool = false) throws -> Int32 {
        let temporary = TemporaryName.path(for: path)
        guard mkfifo(temporary, 0o600) == 0 else {
            throw PipeError.io(path: temporary, operation: "mkfifo", errno: errno)
        }
        let fd = open(temporary, (readWrite ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            unlink(temporary)
            throw PipeError.io(path: temporary, operation: "open", errno: code)
        }
        var info = stat()
        // Checked on the open descriptor: what was opened is the FIFO made above, private to this user.
        if fstat(fd, &info) != 0 || NamedPipe.problem(info) != nil {
            let reason = fstat(fd, &info) == 0 ? NamedPipe.problem(info)?.reason ?? "" : "cannot be examined"
            close(fd)
            unlink(temporary)
            throw PipeError.unsafePath(path: temporary, reason: reason)
        }
        // A link, not a rename: whatever is already at `path` is refused, never replaced.
        guard link(temporary, path) == 0 else {
            let code = errno
            close(fd)
            unlink(temporary)
            var existing = stat()
            if code == EEXIST, lstat(path, &existing) == 0 {
                let reason = NamedPipe.problem(existing)?.reason ?? "already exists (another process's pipe)"
                throw PipeError.unsafePath(path: path, reason: reason)
            }
            throw PipeError.io(path: path, operation: "link", errno: code)
        }
        unlink(temporary)
        return fd
    }

    /// A file's identity: device and inode.
    package struct FileID: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path` (not following a link), or nil when it cannot be read.
    package static func fileID(_ path: String) -> FileID? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Every file some process this user can see holds open (`/proc/<pid>/fd`), by identity: a pipe
    /// that is not among them is held by nobody. Identities, not paths: a renamed or replaced file
    /// shows another path there.
    package static func heldFiles() -> Set<FileID> {
        var held = Set<FileID>()
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil {
            let directory = "/proc/\(pid)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                var info = stat()
                if stat(directory + "/" + fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO {
                    held.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
                }
            }
        }
        return held
    }

    /// Whether the reply pipe `name` in `directory` was left behind: a temporary name whose writer is
    /// gone, or a final name nobody holds (`held` from ``heldFiles()``).
    package static func isStale(name: String, in directory: String, held: Set<FileID>) -> Bool {
        if name.contains(TemporaryName.marker) { return TemporaryName.isAbandoned(name: name, in: directory) }
        guard let id = fileID(directory + "/" + name) else { return false }
        return !held.contains(id)
    }
}
