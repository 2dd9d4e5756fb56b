import AppGroupStore
import Foundation
import Glibc

/// A domain's sync history: `domains/<domain>/sync-history.jsonl`, one ``SyncHistoryEntry`` per line,
/// bounded (docs/file-formats.md, issue 45).
///
/// Appends are durable (`O_APPEND`, then `fdatasync`) under `sync-history.lock`, which the engine (in
/// the provider) and the host (reset and disable markers) both take. The file keeps the last
/// ``keep`` lines: when it grows past twice that it is replaced atomically by its newest ``keep``
/// lines, so an append costs one write and one `fdatasync`, and one read of at most `2 × keep` lines
/// every `keep` appends — bounded by the history, never by the size of the address book.
///
/// A crash mid-append can leave the last line torn (no newline). Readers skip it with a warning; the
/// next append starts on a fresh line, so the torn text never swallows a later entry.
package final class SyncHistoryFile {
    /// How many lines are kept by default.
    package static let defaultKeep = 1000

    /// The history file.
    package let path: String
    /// The lines kept after a trim; a trim happens past `2 × keep`.
    package let keep: Int
    private let lockPath: String
    /// The file as this writer last left it (inode, size, lines), so an append need not count
    /// lines again unless someone else wrote in between.
    private var known: (inode: UInt64, size: Int, lines: Int)?

    /// The history at `path`, locked through `lockPath`, keeping `keep` lines.
    package init(path: String, lockPath: String, keep: Int = SyncHistoryFile.defaultKeep) {
        self.path = path
        self.lockPath = lockPath
        self.keep = max(1, keep)
    }

    /// The history of the domain at `paths`.
    package convenience init(paths: DomainPaths, keep: Int = SyncHistoryFile.defaultKeep) {
        self.init(path: paths.syncHistory, lockPath: paths.syncHistoryLock, keep: keep)
    }

    /// Appends `entry` durably, trimming the file when it has grown past `2 × keep` lines.
    package func append(_ entry: SyncHistoryEntry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        let lock = try FileLock(path: lockPath)
        try lock.withLock(.exclusive) {
            let existed = FileManager.default.fileExists(atPath: path)
            let fd = try SecureFile.open(path, flags: O_WRONLY | O_APPEND, create: true)
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path, operation: "fstat", errno: errno) }
            let size = Int(info.st_size)
            var data = Data()
            // A torn last line (a crash mid-append) ends on a line of its own, never glued to this one.
            if size > 0, try lastByte(size: size) != UInt8(ascii: "\n") { data.append(UInt8(ascii: "\n")) }
            data.append(line)
            let lines: Int
            if let known, known.inode == UInt64(info.st_ino), known.size == size {
                lines = known.lines + 1
            } else {
                lines = try countLines() + 1
            }
            try SecureFile.writeAll(fd: fd, path: path, data: data)
            try SecureFile.sync(fd: fd, path: path)
            if !existed { try SecureFile.syncDirectory((path as NSString).deletingLastPathComponent) }
            known = (UInt64(info.st_ino), size + data.count, lines)
            if lines > 2 * keep { try trim() }
        }
    }

    /// The byte at `size - 1`.
    private func lastByte(size: Int) throws -> UInt8? {
        guard let fd = try? SecureFile.open(path, flags: O_RDONLY, create: false) else { return nil }
        defer { close(fd) }
        return try SecureFile.read(fd: fd, path: path, offset: size - 1, count: 1).first
    }

    /// Lines in the file now (a torn last line counts as one).
    private func countLines() throws -> Int {
        guard let data = try SecureFile.readIfPresent(path) else { return 0 }
        // Over the buffer, not `data.reduce`: Data's iterator costs a call per byte (18 ms for a
        // full history, in the first sync after the provider starts).
        let newlines = data.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }
        return newlines + (data.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    /// Replaces the file, atomically and durably, by its newest `keep` complete lines.
    private func trim() throws {
        guard let data = try SecureFile.readIfPresent(path) else { return }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        var kept = Data()
        for line in lines.suffix(keep) {
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
        }
        try SecureFile.replace(path, with: kept)
        var info = stat()
        known = lstat(path, &info) == 0 ? (UInt64(info.st_ino), Int(info.st_size), min(lines.count, keep)) : nil
    }

    /// What a history holds, oldest first, and what could not be read of it.
    package struct Contents: Sendable {
        /// The entries, oldest first.
        package var entries: [SyncHistoryEntry] = []
        /// A torn last line, named by file and line (a crash mid-append: not an error).
        package var warnings: [String] = []
    }

    /// Reads the history at `path` (empty when it does not exist). A torn line (the last, or one that
    /// stops before its closing brace) is a warning; any other line that is not an entry is an error
    /// naming the file and line.
    package static func read(_ path: String) throws -> Contents {
        var contents = Contents()
        guard let data = try SecureFile.readIfPresent(path) else { return contents }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            do {
                contents.entries.append(try decoder.decode(SyncHistoryEntry.self, from: Data(line)))
            } catch {
                // A line cut short by a crash mid-append: the last one, or one a later append put
                // on a line of its own. A whole line that is no entry is damage, an error.
                if index == lines.count - 1 || line.last != UInt8(ascii: "}") {
                    contents.warnings.append(
                        "\(path):\(index + 1): a torn line (an append cut short by a crash) was ignored")
                    continue
                }
                throw StoreError.malformed(
                    path: path, line: index + 1,
                    reason: LineCoding.reason(error) + " (a history, not state: move the file aside to start a new one)"
                )
            }
        }
        return contents
    }
}
