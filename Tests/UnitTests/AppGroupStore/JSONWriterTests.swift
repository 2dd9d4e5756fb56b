import Foundation
import SeededRandomness
import Testing

@testable import AppGroupStore

/// `JSONWriter` owns its bytes (grown with `realloc`-style doubling, written with `memcpy`); what it
/// writes must be what Foundation's encoder writes, whatever the sizes and wherever the writer grows.
@Suite("The JSON writer's own byte buffer writes what Foundation writes, across growth")
struct JSONWriterTests {
    private static func foundation(_ value: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode([value]), as: UTF8.self)
    }

    private static func written(_ value: String, capacity: Int) -> String {
        var writer = JSONWriter(capacity: capacity)
        writer.byte(0x5B)
        writer.string(value)
        writer.byte(0x5D)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Escapes, non-ASCII, empty strings, and strings that end exactly at, or straddle, the
    /// writer's capacity (the smallest is 16 bytes).
    @Test(arguments: [
        "", "a", "\"", "\\", "a/b", "\u{0}", "\u{1F}", "\u{7F}", "tab\there", "line\nbreak\r\n",
        "\u{8}\u{C}", "é", "日本語", "🙂", "quote at end\"", "\\ at start", String(repeating: "x", count: 13),
        String(repeating: "x", count: 14), String(repeating: "y", count: 15), String(repeating: "z", count: 16),
        String(repeating: "\"", count: 40), String(repeating: "é\n", count: 300), String(repeating: "w", count: 5000),
    ])
    func stringsMatchFoundation(_ value: String) throws {
        let expected = try Self.foundation(value)
        for capacity in [1, 16, 17, 31, 4096] {
            #expect(Self.written(value, capacity: capacity) == expected, "capacity \(capacity)")
        }
    }

    @Test func keysNumbersAndRawBytes() throws {
        var writer = JSONWriter(capacity: 1)
        writer.open()
        writer.field("a", "x", always: true)
        writer.field("empty", "")
        writer.field("n", -42)
        writer.field("t", true)
        writer.field("f", false)
        writer.key("raw")
        writer.raw("1.5")
        writer.key("bytes")
        writer.append([0x5B, 0x5D])
        writer.key("data")
        writer.append(Data("{}".utf8))
        writer.key("none")
        writer.append(UnsafeRawBufferPointer(start: nil, count: 0))
        writer.byte(0x30)
        writer.close()
        let text = #"{"a":"x","n":-42,"t":true,"f":false,"raw":1.5,"bytes":[],"data":{},"none":0}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
        #expect(writer.count == text.utf8.count)
        #expect(writer.data == Data(text.utf8))
    }

    /// `integer` writes what `String(value)` makes, for the edges of `Int`, each power of ten and
    /// one either side of it, and seeded random values of every length, wherever the writer grows.
    @Test func integersMatchStringDescription() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        while power <= Int.max / 10 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var random = SeededRandom(seed: 20_261_207)
        for _ in 0..<2_000 {
            let bits = Int(random.next() % 64)
            let value = Int(truncatingIfNeeded: random.next() >> UInt64(bits))
            values += [value, 0 &- value]
        }
        for capacity in [1, 16, 19, 4096] {
            var writer = JSONWriter(capacity: capacity)
            var expected = ""
            for value in values {
                writer.integer(value)
                writer.byte(0x2C)
                expected += String(value) + ","
            }
            #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "capacity \(capacity)")
        }
    }
}
