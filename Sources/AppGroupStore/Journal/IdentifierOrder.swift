import Foundation
import Glibc

/// The order of identifiers in a snapshot: bytewise on UTF-8, so every process agrees.
package enum IdentifierOrder {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }
}

extension IdentifierOrder {
    /// Below zero, zero or above zero as `a` comes before `b`, equals it or comes after it: one
    /// comparison where merging two ordered lists would ask `precedes` both ways.
    ///
    /// memcmp on the UTF-8 bytes: sorting a million identifiers (compaction, import) spent most of
    /// its time in the generic element-by-element comparison.
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0, let left = x.baseAddress, let right = y.baseAddress {
                    let order = memcmp(left, right, common)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
    }

    /// Whether `identifiers` are in this order, each before the next (one pass).
    package static func isOrdered(_ identifiers: [String]) -> Bool {
        zip(identifiers, identifiers.dropFirst()).allSatisfy { precedes($0, $1) }
    }

    /// Whether no two of `records` have the same identifier: a pass of comparisons when they are
    /// in this order, each before the next (a full sync's pages usually are), else through a set.
    /// The engine checks every content page (R19); a set of each page's identifiers hashed every
    /// contact of a full sync once more (`perf`, issue 44).
    package static func areDistinct(_ records: [ContactRecord]) -> Bool {
        var index = 1
        while index < records.count, precedes(records[index - 1].identifier, records[index].identifier) {
            index += 1
        }
        if index >= records.count { return true }
        var seen: Set<String> = []
        seen.reserveCapacity(records.count)
        for record in records where !seen.insert(record.identifier).inserted { return false }
        return true
    }

    /// The identifiers of `ordered` (in this order, as a snapshot holds them) and of `added` (in any
    /// order), merged into one list in this order, each once, leaving out those `isKept` refuses.
    ///
    /// Compaction's order: a sort of every identifier cost about 40% of compacting the system store
    /// after a full sync (`perf`, issue 44), where the snapshot's identifiers are already in order
    /// and a full sync's pages bring theirs in order too. Merging is one pass; only `added` is
    /// sorted, and only when it is out of order. `isKept` is asked once for each identifier.
    package static func merge(ordered: [String], added: [String], isKept: (String) -> Bool) -> [String] {
        let added = isOrdered(added) ? added : added.sorted(by: precedes)
        var merged: [String] = []
        merged.reserveCapacity(ordered.count + added.count)
        // A contact deleted and added again is in both lists, or twice in `added`: equal neighbours.
        var previous: String?
        func take(_ identifier: String) {
            if let previous, previous == identifier { return }
            previous = identifier
            if isKept(identifier) { merged.append(identifier) }
        }
        var left = ordered.startIndex
        var right = added.startIndex
        while left < ordered.endIndex, right < added.endIndex {
            if precedes(added[right], ordered[left]) {
                take(added[right])
                right += 1
            } else {
                take(ordered[left])
                left += 1
            }
        }
        ordered[left...].forEach(take)
        added[right...].forEach(take)
        return merged
    }
}
