import Glibc

/// The identifier set's slots: a fixed number of 64-bit words, zero at first, shared by copies of
/// the set until one of them writes (the set copies it first: ``copy()``).
///
/// A large table (from ``mappedBytes`` up) gets memory of its own from `mmap`, aligned to and
/// advised for huge pages (``HugePages``) before anything touches it. From `malloc` it came from
/// wherever the allocator found room, often memory already touched on small pages, where the
/// advice does nothing; and anonymous memory is zero already, so the table is not written twice.
final class SlotTable: @unchecked Sendable {
    /// How many slots.
    let count: Int
    /// The first slot.
    let base: UnsafeMutablePointer<UInt64>
    /// The memory `mmap` gave, when it did (else `base` was allocated).
    private let mapping: (start: UnsafeMutableRawPointer, size: Int)?

    /// Tables from this size up are mapped (one huge page: smaller ones could not use one).
    static let mappedBytes = HugePages.size

    /// `count` slots, all zero.
    init(count: Int) {
        self.count = count
        let bytes = count * MemoryLayout<UInt64>.stride
        if bytes >= Self.mappedBytes {
            // One huge page more than needed, so the table can start on a huge page's boundary.
            let size = bytes + HugePages.size
            let start = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let start, start != MAP_FAILED {
                let table = UnsafeMutableRawPointer(bitPattern: HugePages.boundary(atOrAfter: Int(bitPattern: start)))!
                HugePages.advise(UnsafeMutableRawBufferPointer(start: table, count: bytes))
                mapping = (start, size)
                base = table.bindMemory(to: UInt64.self, capacity: count)
                return
            }
        }
        mapping = nil
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(repeating: 0, count: count)
    }

    deinit {
        if let mapping {
            munmap(mapping.start, mapping.size)
        } else {
            base.deallocate()
        }
    }

    /// A table of the same slots, for a writer that shares this one.
    func copy() -> SlotTable {
        let copy = SlotTable(count: count)
        copy.base.update(from: base, count: count)
        return copy
    }

    subscript(slot: Int) -> UInt64 {
        get {
            precondition(slot >= 0 && slot < count, "slot \(slot) of \(count)")
            return base[slot]
        }
        set {
            precondition(slot >= 0 && slot < count, "slot \(slot) of \(count)")
            base[slot] = newValue
        }
    }
}
