import AppGroupStore
import Foundation
import Glibc
import Synchronization

/// Bounds on what a provider leaves in `run/<domain>/` (issue 31 item 12).
///
/// - `provider.log` (the provider's stdout and stderr when the system launches it) is rotated at
///   ``logLimitBytes``: its bytes are copied to `provider.log.1` (replacing the older generation) and
///   the file itself is truncated, so the two files together stay under about twice the limit however
///   long or noisy the provider. The file is never renamed: every process writing to it — the provider
///   and any process it started, which inherits its descriptors (`O_APPEND`) — keeps writing to the
///   one bounded file (a rename reopened only the provider's own descriptors, and a helper process went
///   on filling the renamed one: issue 42, item 7). What a writer appends between the copy and the
///   truncation (microseconds) is lost, as with logrotate's `copytruncate`.
///   The launcher rotates before it starts a provider, and the provider's runtime after each line it
///   logs and once a second (for what the extension, or a process it started, prints).
/// - `traces/` keeps at most ``traceFileLimit`` transcripts and probe results; the oldest go first.
package enum ProviderLog {
    /// The size at which `provider.log` is rotated.
    package static let logLimitBytes: Int = 2 << 20
    /// The most files `traces/` keeps.
    package static let traceFileLimit = 64

    private static let rotation = Mutex(())

    /// Rotates the log at `path` if it is over the limit. Called by the launcher, before a provider
    /// gets the file as its output.
    package static func rotateIfNeeded(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > logLimitBytes else {
            return
        }
        rotation.withLock { _ in copyAndTruncate(path) }
    }

    /// Rotates this process's own output when it is the log at `path` and over the limit (see above).
    /// Output that goes anywhere else (a terminal, under `--foreground`) is left alone.
    package static func rotateOwnOutputIfNeeded(_ path: String) {
        rotation.withLock { _ in
            var output = stat()
            var file = stat()
            guard fstat(2, &output) == 0, Int(output.st_size) > logLimitBytes, lstat(path, &file) == 0,
                file.st_mode & S_IFMT == S_IFREG, file.st_dev == output.st_dev, file.st_ino == output.st_ino
            else { return }
            copyAndTruncate(path)
        }
    }

    /// Copies the log at `path` to `path.1` (a temp file renamed over the older generation) and
    /// truncates `path` to nothing: the same inode, so every descriptor open on it stays bounded.
    private static func copyAndTruncate(_ path: String) {
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let bytes = try? SecureFile.readAll(fd: fd, path: path)
        else { return }
        // Not durable: a log is diagnostics, and a sync of megabytes would stall the provider.
        guard (try? SecureFile.replace(path + ".1", with: bytes, durable: false)) != nil else { return }
        _ = ftruncate(fd, 0)
    }

    /// Removes the oldest files of `directory` beyond ``traceFileLimit``.
    package static func capTraces(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard names.count > traceFileLimit else { return }
        var files: [(path: String, modified: timespec)] = []
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { files.append((path, info.st_mtim)) }
        }
        files.sort { ($0.modified.tv_sec, $0.modified.tv_nsec) < ($1.modified.tv_sec, $1.modified.tv_nsec) }
        for file in files.dropLast(traceFileLimit) { unlink(file.path) }
    }
}
