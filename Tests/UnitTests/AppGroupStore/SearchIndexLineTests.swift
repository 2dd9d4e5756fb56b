import Foundation
import SeededRandomness
import Testing

@testable import AppGroupStore

/// An index line starts with its contact's offset in the snapshot, written digit by digit
/// (`SearchIndexBuilder.appendDecimal`): the text `String(offset)` makes, for every size.
@Suite("A search index line's offset is the offset's decimal text")
struct SearchIndexLineTests {
    /// Offsets at each power of ten and one either side, the edges of `Int` (and negatives, which no
    /// offset is, taken the general way), and seeded random offsets of every length.
    @Test func offsetsMatchStringDescription() {
        var offsets = [0, 1, 9, 10, 99, 100, Int.max, Int.min, -1, -10]
        var power = 1
        while power <= Int.max / 10 {
            power *= 10
            offsets += [power - 1, power, power + 1]
        }
        var random = SeededRandom(seed: 20_261_207)
        for _ in 0..<2_000 {
            offsets.append(Int(truncatingIfNeeded: random.next() >> (1 + random.next() % 63)))
        }
        let index = SearchIndex(fileName: "offsets", keysVersion: "offsets-1") { _ in [] }
        var builder = SearchIndexBuilder(index: index, expectedCount: offsets.count)
        var expected: [UInt8] = []
        let keys: [UInt8] = Array(" a b".utf8)
        for offset in offsets {
            keys.withUnsafeBytes { builder.append(offset: offset, storedKeys: $0) }
            expected += Array(String(offset).utf8) + keys + [0x0A]
        }
        #expect(builder.body == expected)
        #expect(builder.count == offsets.count)
    }
}
