import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A read-only memory map of a file, so lookups touch only the pages they need.
///
/// Binary searches over the sorted snapshot and the seq-ordered journal read O(log n) pages
/// instead of the whole file; that is what keeps single-contact operations independent of the
/// size of the address book.
final class MappedFile: @unchecked Sendable {
    // Immutable after init: a read-only mapping, unmapped only in deinit.
    let path: String
    let size: Int
    let inode: UInt64
    private let base: UnsafeMutableRawPointer?

    /// Maps `path`, or returns nil when it does not exist.
    static func openIfPresent(_ path: String) throws -> MappedFile? {
        let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw StoreError.unsafePath(path: path, reason: "is a symbolic link") }
            throw StoreError.io(path: path, operation: "open", errno: errno)
        }
        defer { close(fd) }
        try SecureFile.checkRegularOwned(fd: fd, path: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path, operation: "fstat", errno: errno) }
        let size = Int(info.st_size)
        var base: UnsafeMutableRawPointer?
        if size > 0 {
            let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0)
            guard let mapped, mapped != MAP_FAILED else {
                throw StoreError.io(path: path, operation: "mmap", errno: errno)
            }
            base = mapped
        }
        return MappedFile(path: path, size: size, inode: UInt64(info.st_ino), base: base)
    }

    private init(path: String, size: Int, inode: UInt64, base: UnsafeMutableRawPointer?) {
        self.path = path
        self.size = size
        self.inode = inode
        self.base = base
    }

    deinit {
        if let base { munmap(base, size) }
    }

    /// The mapped bytes.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : size)
    }

    /// A copy of bytes `range`.
    func data(_ range: Range<Int>) -> Data {
        guard let base else { return Data() }
        return Data(bytes: base + range.lowerBound, count: range.count)
    }

    /// The offset of the first newline at or after `offset`, or nil.
    func newline(from offset: Int) -> Int? {
        guard let base, offset < size else { return nil }
        guard let found = memchr(base + offset, 0x0A, size - offset) else { return nil }
        return base.distance(to: found)
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
