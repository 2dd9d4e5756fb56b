import Foundation

/// The journal's last complete line, read from the file's end: what a writer checks before it
/// appends, and what `summary()` answers from when that line carries the live count.
enum JournalTail {
    /// The last newline-terminated line within `start..<end` of the file open at `fd` (bytes after
    /// it, a torn tail, are not part of it), read in chunks that grow from the end: its offset in the
    /// file and its bytes without the newline; nil when no newline ends a line in that range.
    static func lastCompleteLine(fd: Int32, path: String, from start: Int, to end: Int) throws -> (
        start: Int, bytes: Data
    )? {
        var chunk = 64 * 1024
        while true {
            let from = max(start, end - chunk)
            let tail = try SecureFile.read(fd: fd, path: path, offset: from, count: end - from)
            // Through the raw bytes: `Data`'s own index walk checks exclusive access per byte, which
            // was a third of `status`'s time for a page's line of 400 kB.
            let found: Search = tail.withUnsafeBytes { bytes in
                guard let lineEnd = lastNewline(in: bytes, before: bytes.count) else {
                    return from == start ? .none : .readMore
                }
                if let previous = lastNewline(in: bytes, before: lineEnd) {
                    return .line((previous + 1)..<lineEnd)
                }
                return from == start ? .line(0..<lineEnd) : .readMore
            }
            switch found {
            case .line(let line): return (from + line.lowerBound, tail.subdata(in: line))
            case .none: return nil
            case .readMore: chunk *= 4
            }
        }
    }

    /// What one chunk from the end told. Not an optional of an optional: a `nil` meant "read more" in
    /// one branch and "no line" in another, and a line longer than the first chunk was taken for none.
    private enum Search {
        case line(Range<Int>)
        case none
        case readMore
    }

    /// The offset of the last newline in `bytes[..<limit]`.
    private static func lastNewline(in bytes: UnsafeRawBufferPointer, before limit: Int) -> Int? {
        var index = limit - 1
        while index >= 0 {
            if bytes[index] == 0x0A { return index }
            index -= 1
        }
        return nil
    }
}
