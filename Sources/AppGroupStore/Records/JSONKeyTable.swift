import Foundation

/// Keys matched as bytes, so reading a line allocates no key strings.
///
/// Every key's bytes, one after another: a lookup is a loop of length checks and `memcmp`s with no
/// array, closure or generic iterator on its path. (A debug build spent 30% of an import in this
/// lookup when it walked `[[UInt8]].enumerated()`: each step asked the runtime for generic and
/// tuple metadata.) The table holds no object either: with a class owning the memory, a debug
/// build retained and released it on every key of every contact (6% of a debug import). So the
/// memory is never freed: a table is meant for a `static let`, which lives as long as the process.
///
/// (`@unchecked Sendable`: its pointers are to memory nobody writes after `init`.)
package struct JSONKeyTable: @unchecked Sendable {
    // Not private: ``index(of:from:)`` is defined beside its hot caller (StrictJSONReader.swift).

    /// Key `i` is `bytes[starts[i] ..< starts[i + 1]]`.
    let bytes: UnsafeMutablePointer<UInt8>
    /// `count + 1` entries.
    let starts: UnsafeMutablePointer<Int>
    let count: Int
    /// The longest key's length in bytes.
    let maximumLength: Int
    /// For each length `0...maximumLength`, the first key of that length (-1: none); then
    /// `nextOfLength[i]`, the next key after `i` of the same length (-1: none). A key out of table
    /// order is found among the keys of its length, not by walking past all the others.
    let firstOfLength: UnsafeMutablePointer<Int>
    let nextOfLength: UnsafeMutablePointer<Int>

    /// A table of `names`, for a `static let` (its memory is never freed).
    package init(_ names: [String]) {
        // readObject(keys:) marks the keys it has seen in a 64-bit set.
        precondition(names.count <= 64, "a JSONKeyTable holds at most 64 keys")
        // Unique, so a search may start anywhere (`index(of:from:)`) and find the same index.
        precondition(Set(names).count == names.count, "a JSONKeyTable's keys are distinct")
        // `readObject(keys:)` takes input bytes equal to a key as checked: none may need checking.
        precondition(
            names.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C } },
            "a JSONKeyTable's keys hold no quote, backslash or control character")
        count = names.count
        starts = .allocate(capacity: names.count + 1)
        let total = names.reduce(0) { $0 + $1.utf8.count }
        bytes = .allocate(capacity: max(total, 1))
        var offset = 0
        for (index, name) in names.enumerated() {
            starts[index] = offset
            for byte in name.utf8 {
                bytes[offset] = byte
                offset += 1
            }
        }
        starts[names.count] = offset
        maximumLength = names.map(\.utf8.count).max() ?? 0
        firstOfLength = .allocate(capacity: maximumLength + 1)
        firstOfLength.initialize(repeating: -1, count: maximumLength + 1)
        nextOfLength = .allocate(capacity: max(names.count, 1))
        // From the last key back, so each length's chain is in table order.
        for index in names.indices.reversed() {
            let length = starts[index + 1] - starts[index]
            nextOfLength[index] = firstOfLength[length]
            firstOfLength[length] = index
        }
    }

    /// The bytes of key `index` (memory the table never frees): a writer copies a key from here.
    package func key(at index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes + starts[index], count: starts[index + 1] - starts[index])
    }

    /// The index of `key` in the table, or nil for a key the table does not know.
    package func index(of key: UnsafeRawBufferPointer) -> Int? {
        index(of: key, from: 0)
    }
}
