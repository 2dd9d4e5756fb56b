import Foundation
import Glibc

/// The order of identifiers in a snapshot: bytewise on UTF-8, so every process agrees.
package enum IdentifierOrder {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        // memcmp on the UTF-8 bytes: sorting a million identifiers (compaction, import) spent most
        // of its time in the generic element-by-element comparison.
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let left = x.baseAddress, let right = y.baseAddress {
                    let order = memcmp(left, right, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }
}
