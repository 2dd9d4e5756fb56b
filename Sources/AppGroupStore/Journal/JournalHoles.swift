import Foundation
import Glibc
import Synchronization

/// Writeback holes: what a power cut can leave of an append that was never made durable.
///
/// A file system may write a file's new size back before all of its new data (ext4 with delayed
/// allocation does), so after a power cut part of an unacknowledged append reads as zeros while the
/// lines around it are whole. The store's lines are JSON, which never holds a raw NUL byte, so a zero
/// byte can only be such a hole; and a hole can only lie in data written after the last fdatasync,
/// because everything before it was durable. Writers keep that region small: at most
/// ``unsyncedLimit`` bytes of whole lines (or one longer line) between two fdatasyncs.
///
/// So the line holding the first hole (zeros running to a block's end or the file's end), and
/// everything after it, is an append that was never acknowledged: readers treat it as a torn tail (``committedEnd(of:)``) and the next writer cuts it
/// off. Keeping the whole lines after the hole would leave a database that is not a prefix of what
/// was written (an import's contacts 1–40 and 60–100, without 41–59).
enum JournalHoles {
    /// The most bytes of whole lines a writer appends between two fdatasyncs.
    static let unsyncedLimit = 1 << 20

    /// Per journal file (path and inode), the offset up to which this process has seen no zero byte.
    ///
    /// Zeros appear only in what a new process reads after a power cut; in a running system the page
    /// cache holds the real bytes, so a range found clean stays clean for as long as the process
    /// lives. A long-lived reader (the provider, on every signal) then looks only at new bytes.
    private static let verified = Mutex<[String: (inode: UInt64, end: Int)]>([:])

    /// Where a hole can be: the last line (however long) and everything within twice the limit of
    /// the end. A zero byte earlier than that sits in data that was durable, which is damage, and is
    /// reported as such by the line's decoder (it is no JSON).
    static func searchStart(in bytes: UnsafeRawBufferPointer) -> Int {
        let size = bytes.count
        guard size > 0 else { return 0 }
        var lastLineStart = size - 1
        // The start of the last line, complete or torn (the newline ending it does not count).
        if bytes[lastLineStart] == 0x0A { lastLineStart -= 1 }
        while lastLineStart > 0, bytes[lastLineStart - 1] != 0x0A { lastLineStart -= 1 }
        return max(0, min(size - 2 * unsyncedLimit, lastLineStart))
    }

    /// The end of the journal's committed bytes in `bytes`: the start of the line with the first zero
    /// byte in the region a hole can be in, or the whole size when there is none.
    static func committedEnd(of bytes: UnsafeRawBufferPointer) -> Int {
        committedEnd(of: bytes, from: searchStart(in: bytes))
    }

    /// ``committedEnd(of:)`` for the journal at `path` with `inode`, skipping what this process
    /// already found clean in that file.
    static func committedEnd(of bytes: UnsafeRawBufferPointer, path: String, inode: UInt64) -> Int {
        let known = verified.withLock { $0[path] }
        var start = searchStart(in: bytes)
        if let known, known.inode == inode, known.end <= bytes.count { start = max(start, known.end) }
        let end = committedEnd(of: bytes, from: start)
        if end == bytes.count { verified.withLock { $0[path] = (inode, end) } }
        return end
    }

    /// The size of the blocks a file system writes back whole (the page size).
    static let blockSize = 4096

    /// `bytes` start at `fileOffset` in the file; a hole is told by its end (see the type's comment).
    private static func committedEnd(of bytes: UnsafeRawBufferPointer, from start: Int, fileOffset: Int = 0) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        var position = start
        while position < bytes.count, let zero = memchr(base + position, 0, bytes.count - position) {
            let runStart = base.distance(to: zero)
            var runEnd = runStart
            while runEnd < bytes.count, bytes[runEnd] == 0 { runEnd += 1 }
            // Write-back goes by whole blocks, so the zeros of a hole run to a block's end or to the
            // end of the file. Other zeros (a flipped byte) are damage for the line's decoder to report.
            if runEnd == bytes.count || (fileOffset + runEnd) % blockSize == 0 {
                var lineStart = runStart
                while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                return lineStart
            }
            position = runEnd
        }
        return bytes.count
    }

    /// ``committedEnd(of:)`` for the file `window` reads (its inode is `inode`), reading only the
    /// region a hole can be in, through the window rather than whole: the region is up to 2 MiB, and
    /// a caller that goes on to read the last line finds it still in the window.
    static func committedEnd(_ window: inout FileWindow, inode: UInt64) throws -> Int {
        let size = window.size
        guard size > 0 else { return 0 }
        let path = window.path
        if let known = verified.withLock({ $0[path] }), known.inode == inode, known.end == size { return size }
        // The start of the last line, complete or torn (the newline ending it does not count).
        let lastLineEnd = size - 1
        let lastLineStart = try window.lastIndex(of: 0x0A, in: 0..<lastLineEnd).map { $0 + 1 } ?? 0
        var position = max(0, min(size - 2 * unsyncedLimit, lastLineStart))
        while let zero = try window.firstIndex(of: 0, in: position..<window.size) {
            let runEnd = try window.firstIndex(notEqualTo: 0, in: zero..<window.size) ?? window.size
            // Write-back goes by whole blocks, so the zeros of a hole run to a block's end or to the
            // end of the file. Other zeros (a flipped byte) are damage for the line's decoder to report.
            if runEnd == window.size || runEnd % blockSize == 0 {
                return try window.lastIndex(of: 0x0A, in: 0..<zero).map { $0 + 1 } ?? 0
            }
            position = runEnd
        }
        if window.size == size { verified.withLock { $0[path] = (inode, size) } }
        return window.size
    }
}
