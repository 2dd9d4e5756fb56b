import Foundation

/// The journal's last complete line, read from the file's end: what a writer checks before it
/// appends, and what `summary()` answers from when that line carries the live count.
enum JournalTail {
    /// The last newline-terminated line within `start..<end` of the file `window` reads (bytes after
    /// it, a torn tail, are not part of it): its offset in the file and its bytes without the
    /// newline; nil when no newline ends a line in that range. Its two newlines are found in the
    /// window (the writeback-hole check before it has just read that end of the file), and only the
    /// line itself is read into memory.
    static func lastCompleteLine(_ window: inout FileWindow, from start: Int, to end: Int) throws -> (
        start: Int, bytes: Data
    )? {
        guard let lineEnd = try window.lastIndex(of: 0x0A, in: start..<end) else { return nil }
        let lineStart = try window.lastIndex(of: 0x0A, in: start..<lineEnd).map { $0 + 1 } ?? start
        let bytes = try SecureFile.read(fd: window.fd, path: window.path, offset: lineStart, count: lineEnd - lineStart)
        // Shorter than found: the file was cut meanwhile (a writer removing a torn tail), and a line
        // that is not whole is no line.
        guard bytes.count == lineEnd - lineStart else { return nil }
        return (lineStart, bytes)
    }
}
