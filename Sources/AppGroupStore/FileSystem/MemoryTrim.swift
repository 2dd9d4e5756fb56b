import Foundation
import Glibc

/// Gives freed heap memory back to the operating system (glibc's `malloc_trim`).
///
/// Decoding a large page leaves the heap full of free blocks that still count as resident; trimming
/// before a compaction keeps a provider's peak resident memory near what it really holds. Swift's
/// Glibc module does not declare `malloc_trim`, so it is looked up at run time.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    static func returnFreeMemory() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
