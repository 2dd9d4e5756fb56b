import Foundation
import Glibc

extension SecureFile {
    /// Gives `path` a second name, `<path>.damaged-<timestamp>`, that names no file yet (`-2`, `-3`, …
    /// when a repair in the same second already used it), and returns that name; `path` keeps its own.
    ///
    /// A hard link never replaces an existing name (`link` fails with `EEXIST`), which is what makes a
    /// second repair in the same second safe: an earlier damaged copy is never renamed over. Where the
    /// file system has no hard links, a regular file's bytes are copied to the new name durably instead
    /// (`O_EXCL`: that cannot replace a name either). The caller syncs the directory.
    package static func linkAside(_ path: String, timestamp: String) throws -> String {
        var attempt = 1
        while true {
            let aside = asideName(path, timestamp: timestamp, attempt: attempt)
            if link(path, aside) == 0 { return aside }
            let code = errno
            if code == EEXIST {
                attempt += 1
                continue
            }
            guard code == EPERM || code == EXDEV || code == EOPNOTSUPP || code == EMLINK else {
                throw StoreError.io(path: aside, operation: "link", errno: code)
            }
            guard let bytes = try readIfPresent(path) else {
                throw StoreError.io(path: aside, operation: "link", errno: code)
            }
            do {
                try create(aside, with: bytes)
                return aside
            } catch StoreError.io(_, _, EEXIST) {
                attempt += 1
            }
        }
    }

    /// Moves `path` to `<path>.damaged-<timestamp>` (or `-2`, `-3`, … when that name is taken) and makes
    /// the move durable; returns the new name. It never replaces an existing file, so two repairs in one
    /// second each keep their copy ("`--repair` never deletes data").
    ///
    /// A link to a fresh name, then the old name removed: a crash between the two leaves both names, never
    /// neither. A file that cannot be linked (a file system without hard links) is renamed to a name
    /// checked to be free just before; only that fallback has a window in which another process could
    /// take the name.
    package static func moveAside(_ path: String, timestamp: String) throws -> String {
        let aside: String
        do {
            aside = try linkAsideWithoutCopy(path, timestamp: timestamp)
        } catch let StoreError.io(_, _, code) where code == EPERM || code == EXDEV || code == EOPNOTSUPP {
            aside = try renameToFreeName(path, timestamp: timestamp)
            try syncDirectory(parent(of: path))
            return aside
        }
        guard unlink(path) == 0 else { throw StoreError.io(path: path, operation: "unlink", errno: errno) }
        try syncDirectory(parent(of: path))
        return aside
    }

    /// `<path>.damaged-<timestamp>`, then `-2`, `-3`, …
    package static func asideName(_ path: String, timestamp: String, attempt: Int) -> String {
        path + ".damaged-" + timestamp + (attempt == 1 ? "" : "-\(attempt)")
    }

    /// A hard link to the first free aside name (any kind of file: a FIFO, a directory entry of any type).
    private static func linkAsideWithoutCopy(_ path: String, timestamp: String) throws -> String {
        var attempt = 1
        while true {
            let aside = asideName(path, timestamp: timestamp, attempt: attempt)
            if link(path, aside) == 0 { return aside }
            guard errno == EEXIST else { throw StoreError.io(path: aside, operation: "link", errno: errno) }
            attempt += 1
        }
    }

    private static func renameToFreeName(_ path: String, timestamp: String) throws -> String {
        var attempt = 1
        var info = stat()
        while lstat(asideName(path, timestamp: timestamp, attempt: attempt), &info) == 0 { attempt += 1 }
        let aside = asideName(path, timestamp: timestamp, attempt: attempt)
        guard rename(path, aside) == 0 else { throw StoreError.io(path: path, operation: "rename", errno: errno) }
        return aside
    }
}
