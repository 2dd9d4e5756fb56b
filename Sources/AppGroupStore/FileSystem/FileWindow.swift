import Foundation
import Glibc

/// Searches a file's bytes through one small buffer that slides over it, instead of reading the
/// whole region searched into memory.
///
/// The journal's readers look at its end: the writeback-hole check scans up to 2 MiB before it,
/// and the last line (a page of a thousand contacts is about 430 kB) is found from the end. Read
/// whole, each of those was a fresh allocation whose every page faults in once, in a process that
/// often lives a few milliseconds (`contacts-host status` right after a full sync: 1,796 page faults
/// against 852 settled). Through a window of 64 KiB the same searches touch 16 pages, and a byte
/// that two searches look at is read once when the window still holds it.
///
/// A file that shrinks while it is read (a writer cutting off a torn tail, which readers that never
/// wait can see) ends where the shorter read ended: ``size`` follows it.
struct FileWindow: ~Copyable {
    /// The window's size: sixteen pages.
    static let capacity = 64 * 1024

    let fd: Int32
    let path: String
    /// The file's size: what the caller gave, or less once a read came back short.
    private(set) var size: Int
    private let buffer: UnsafeMutableRawBufferPointer
    /// The file offset of `buffer`'s first byte, and how many bytes it holds.
    private var start = 0
    private var count = 0

    init(fd: Int32, path: String, size: Int) {
        self.fd = fd
        self.path = path
        self.size = size
        buffer = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The offset of the first `byte` in `range` (clamped to the file), or nil.
    mutating func firstIndex(of byte: UInt8, in range: Range<Int>) throws -> Int? {
        var position = range.lowerBound
        while position < min(range.upperBound, size) {
            guard try load(holding: position, forward: true) else { return nil }
            let from = position - start
            let limit = min(range.upperBound, start + count) - start
            if let found = memchr(buffer.baseAddress! + from, Int32(byte), limit - from) {
                return start + buffer.baseAddress!.distance(to: found)
            }
            position = start + limit
        }
        return nil
    }

    /// The offset of the first byte in `range` that is not `byte` (clamped to the file), or nil.
    mutating func firstIndex(notEqualTo byte: UInt8, in range: Range<Int>) throws -> Int? {
        var position = range.lowerBound
        while position < min(range.upperBound, size) {
            guard try load(holding: position, forward: true) else { return nil }
            let limit = min(range.upperBound, start + count)
            while position < limit {
                if buffer[position - start] != byte { return position }
                position += 1
            }
        }
        return nil
    }

    /// The offset of the last `byte` in `range` (clamped to the file), or nil.
    mutating func lastIndex(of byte: UInt8, in range: Range<Int>) throws -> Int? {
        var position = min(range.upperBound, size) - 1
        while position >= range.lowerBound {
            guard try load(holding: position, forward: false) else {
                // The file shrank below `position`: look again from its new end.
                position = min(position, size) - 1
                continue
            }
            let floor = max(range.lowerBound, start)
            // Eight bytes at a time while none of them is `byte` (glibc's memrchr is not in the
            // Glibc module): the search runs back over a whole page line, about 430 kB, in the
            // writeback-hole check and again for the last line.
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            var word: UInt64 = 0
            while position - 7 >= floor {
                memcpy(&word, buffer.baseAddress! + (position - 7 - start), 8)
                let match = word ^ pattern
                if (match &- 0x0101_0101_0101_0101) & ~match & 0x8080_8080_8080_8080 != 0 { break }
                position -= 8
            }
            while position >= floor {
                if buffer[position - start] == byte { return position }
                position -= 1
            }
        }
        return nil
    }

    /// Makes the window hold `offset`: starting there when searching forward, ending just after it
    /// when searching backward. False when the file ends before `offset`.
    private mutating func load(holding offset: Int, forward: Bool) throws -> Bool {
        if offset >= start, offset < start + count { return true }
        guard offset < size else { return false }
        let from = forward ? offset : max(0, offset + 1 - Self.capacity)
        let wanted = min(Self.capacity, size - from)
        let filled = try SecureFile.read(
            fd: fd, path: path, offset: from, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        start = from
        count = filled
        if filled < wanted { size = from + filled }
        return offset < start + count
    }
}
