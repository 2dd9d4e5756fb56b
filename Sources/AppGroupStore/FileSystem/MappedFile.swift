import Foundation
import Glibc

/// A read-only view of a file: memory-mapped when large, so lookups touch only the pages they
/// need; read into memory when small (or when only a prefix is wanted), because unmapping in a
/// multi-threaded process costs every CPU a TLB flush — most of an idle signal's time otherwise.
///
/// Binary searches over the sorted snapshot and the seq-ordered journal read O(log n) pages
/// instead of the whole file; that is what keeps single-contact operations independent of the
/// size of the address book.
final class MappedFile: @unchecked Sendable {
    // Immutable after init: a read-only mapping or buffer, released only in deinit.
    let path: String
    /// The bytes available (the file's size, or the prefix that was read).
    let size: Int
    let inode: UInt64
    private let base: UnsafeMutableRawPointer?
    private let mapped: Bool

    /// Whether this view keeps the file itself alive (a mapping does; bytes read into memory do
    /// not): while it does, no other file can get its inode number, so a path whose inode is
    /// ``inode`` still names this very file.
    var pinsInode: Bool { mapped }

    /// Files up to this size are read rather than mapped.
    static let readLimit = 64 * 1024

    /// Opens `path` (all of it, or its first `prefix` bytes), or returns nil when it does not exist.
    static func openIfPresent(_ path: String, prefix: Int? = nil) throws -> MappedFile? {
        guard let fd = try SecureFile.openForReadingIfPresent(path) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path, operation: "fstat", errno: errno) }
        let fileSize = Int(info.st_size)
        let wanted = prefix.map { min($0, fileSize) } ?? fileSize
        guard wanted > 0 else {
            return MappedFile(path: path, size: 0, inode: UInt64(info.st_ino), base: nil, mapped: false)
        }
        if prefix != nil || wanted <= readLimit {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: wanted, alignment: 16)
            var filled = 0
            while filled < wanted {
                let n = pread(fd, buffer + filled, wanted - filled, off_t(filled))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                filled += n
            }
            return MappedFile(path: path, size: filled, inode: UInt64(info.st_ino), base: buffer, mapped: false)
        }
        let region = mmap(nil, wanted, PROT_READ, MAP_SHARED, fd, 0)
        guard let region, region != MAP_FAILED else {
            throw StoreError.io(path: path, operation: "mmap", errno: errno)
        }
        return MappedFile(path: path, size: wanted, inode: UInt64(info.st_ino), base: region, mapped: true)
    }

    /// Opens a journal, or returns nil when it does not exist: like `openIfPresent`, but `size` ends
    /// before a writeback hole (see ``JournalHoles``), so every reader treats the unacknowledged
    /// append the hole is in, and everything after it, as a torn tail.
    ///
    /// `mapping` false reads the file with `pread` instead of mapping it: a reader that holds no lock
    /// must never map a journal, because a writer may cut it back in place (a torn tail, or lines
    /// whose `fdatasync` failed), and touching a mapped page past the new end raises SIGBUS. A read
    /// that races such a cut just returns fewer bytes, whose last line is then a torn tail.
    static func openJournalIfPresent(_ path: String, mapping: Bool = true) throws -> MappedFile? {
        guard let file = try openIfPresent(path, prefix: mapping ? nil : Int.max) else { return nil }
        let end = JournalHoles.committedEnd(of: file.bytes, path: path, inode: file.inode)
        guard end < file.size else { return file }
        return MappedFile(
            path: path, size: end, inode: file.inode, base: file.takeBase(), mapped: file.mapped, length: file.size)
    }

    private init(
        path: String, size: Int, inode: UInt64, base: UnsafeMutableRawPointer?, mapped: Bool, length: Int? = nil
    ) {
        self.path = path
        self.size = size
        self.inode = inode
        self.base = base
        self.mapped = mapped
        self.length = length ?? size
    }

    /// The bytes mapped or allocated (at least `size`).
    private let length: Int
    /// Set when another `MappedFile` took over `base` (which this one then must not release).
    private var released = false

    /// Hands `base` to a new owner.
    private func takeBase() -> UnsafeMutableRawPointer? {
        released = true
        return base
    }

    deinit {
        guard let base, !released else { return }
        if mapped { munmap(base, length) } else { base.deallocate() }
    }

    /// The mapped bytes.
    /// Takes the file's pages out of this process's resident set (the page cache keeps them, so a
    /// later read is a minor fault). A pass over a large mapped file calls this as it goes, so the
    /// process's peak memory does not grow by the size of the file.
    func dropResidentPages() {
        guard mapped, let base else { return }
        _ = madvise(base, length, MADV_DONTNEED)
    }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : size)
    }

    /// A copy of bytes `range`.
    func data(_ range: Range<Int>) -> Data {
        guard let base else { return Data() }
        return Data(bytes: base + range.lowerBound, count: range.count)
    }

    /// Appends bytes `range` to `data` (one copy, no intermediate value).
    func append(_ range: Range<Int>, to data: inout Data) {
        guard let base, !range.isEmpty else { return }
        data.append(base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count)
    }

    /// The offset of the first newline at or after `offset`, or nil.
    func newline(from offset: Int) -> Int? {
        Self.newline(in: bytes, from: offset)
    }

    /// The offset of the first newline at or after `offset` in `bytes` (a file's ``bytes``), or nil:
    /// ``newline(from:)`` for a caller that took the bytes once (``LineCursor``: a debug build retains
    /// and releases the file around each method call, once per line).
    static func newline(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        guard let base = bytes.baseAddress, offset < bytes.count,
            let found = memchr(base + offset, 0x0A, bytes.count - offset)
        else { return nil }
        return base.distance(to: found)
    }

    /// Lets the kernel drop the mapped pages wholly inside `range` from this process's memory; a
    /// later read of them reads the file again. Nothing for a file that was read rather than mapped.
    func releasePages(in range: Range<Int>) {
        guard mapped, let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + page - 1) / page * page
        let end = min(range.upperBound, size) / page * page
        guard end > start else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }

    /// The pages behind a reader that goes through a mapped file front to back, released as it goes,
    /// so that it stays bounded by what it has not read yet. Released every `stride` bytes, not per
    /// line or page: each release costs what an `munmap` does (a TLB shootdown on every core).
    ///
    /// A reader that goes back (a content enumeration that starts over on the same file) reads pages
    /// it had released: the next release starts from the file's start again.
    struct PagesBehindReader {
        let stride: Int
        /// Where the pages released since the reader last went back end.
        private(set) var releasedBefore = 0
        /// Where the reader was last.
        private var position = 0

        init(stride: Int) {
            self.stride = stride
        }

        /// The reader reached `offset` of `file`: the pages before it go once `stride` bytes are due.
        mutating func reached(_ offset: Int, in file: MappedFile) {
            if offset < position { releasedBefore = 0 }
            position = offset
            guard offset - releasedBefore >= stride else { return }
            file.releasePages(in: releasedBefore..<offset)
            releasedBefore = offset
        }
    }

    /// The start of the line that contains `offset` (never before `floor`).
    func lineStart(containing offset: Int, floor: Int) -> Int {
        guard let base else { return floor }
        var index = offset
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        while index > floor, bytes[index - 1] != 0x0A { index -= 1 }
        return index
    }
}
