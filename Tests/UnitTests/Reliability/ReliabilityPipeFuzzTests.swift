import ContactProviderSystem
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// Hostile bytes on the request FIFO: `Doorbell.parse` and `BoundedLineBuffer` must never crash,
/// reject what is not a valid doorbell with `Doorbell.Malformed`, and keep memory bounded.
@Suite("Reliability: doorbell and line buffer fuzzing")
struct ReliabilityPipeFuzzTests {
    static let uuid = "6B1C5F6E-3A1D-4F8B-9C3E-2D7A1B0C9E8F"

    /// Valid lines of every kind: the seeds that mutations start from.
    static let corpus: [String] = [
        #"{"v":1,"kind":"signal"}"#,
        #"{"v":1,"kind":"signal","id":"\#(uuid)","reply":true,"trace":false}"#,
        #"{"v":1,"kind":"signal","id":"\#(uuid)","reply":true,"trace":true}"#,
        #"{"v":1,"kind":"step","id":"\#(uuid)","reply":true}"#,
        #"{"v":1,"kind":"invalidate","id":"\#(uuid)","reply":true}"#,
        #"{"v":1,"kind":"shutdown"}"#,
        #"{"v":1,"kind":"probe","id":"\#(uuid)","reply":true,"probe":{"kind":"content","position":{"generationMarker":"Y3BzMTpBQkM6MQ==","offset":0},"size":10}}"#,
        #"{"v":1,"kind":"probe","id":"\#(uuid)","reply":true,"probe":{"kind":"changes","position":{"generationMarker":"","offset":3},"size":1}}"#,
    ]

    /// Values of the wrong type (or out of range) for the fields of a doorbell.
    static let wrongValues: [String] = [
        "null", "true", "\"1\"", "[1]", "{}", "1.5", "-1", "1e400", "9223372036854775808", "\"\"", "\"../../x\"",
        "\"\\u0000\"", "\"\(String(repeating: "A", count: 70))\"", "[]", "{\"kind\":1}", "\"\\ud800\"",
    ]

    /// Whole lines that are JSON but not an object of the right shape, or not JSON at all.
    static let wrongShapes: [String] = [
        "", " ", "null", "[]", "1", "\"signal\"", "true", "{}", "{\"v\":1}", "{\"kind\":\"signal\"}",
        "{\"v\":2,\"kind\":\"signal\"}", "{\"v\":1,\"kind\":\"explode\"}",
        "{\"v\":1,\"kind\":\"signal\",\"reply\":true}",
        "{\"v\":1,\"kind\":\"probe\",\"id\":\"\(uuid)\",\"reply\":true}",
        "{\"v\":1,\"kind\":\"signal\",\"id\":\"../../etc/passwd\",\"reply\":true}",
        "{\"v\":1,\"kind\":\"signal\",\"id\":\"\(uuid)/../../x\"}", "{\"v\":1,\"kind\":\"signal\"", "{\"v\":1,,}",
        "{\"v\":1,\"kind\":\"signal\"}{\"v\":1,\"kind\":\"signal\"}",
    ]

    /// One hostile line.
    static func hostileLine(_ random: inout SeededRandom) -> [UInt8] {
        var line = Array(random.pick(corpus).utf8)
        switch random.int(0..<10) {
        case 0:
            return random.bytes(random.int(0...300))
        case 1:
            return Array(line.prefix(random.int(0..<line.count)))
        case 2:
            ReliabilityMutation.flip(&line, count: random.int(1...4), &random)
        case 3:
            ReliabilityMutation.insertBadUTF8(&line, &random)
        case 4:
            // Replace one field's value with a wrongly typed one.
            let text = String(decoding: line, as: UTF8.self)
            let keys = [
                "\"v\":1", "\"kind\":\"signal\"", "\"kind\":\"probe\"", "\"reply\":true", "\"id\":\"\(uuid)\"",
                "\"trace\":false", "\"size\":10", "\"offset\":0", "\"kind\":\"content\"",
            ]
            let present = keys.filter { text.contains($0) }
            guard let key = present.isEmpty ? nil : random.pick(present) else { return line }
            let name = key.prefix { $0 != ":" }
            return Array(text.replacingOccurrences(of: key, with: "\(name):\(random.pick(wrongValues))").utf8)
        case 5:
            return Array(random.pick(wrongShapes).utf8)
        case 6:
            // Oversized: a valid-looking line far beyond PIPE_BUF.
            let padding = String(repeating: "x", count: random.int(4097...100_000))
            return Array(#"{"v":1,"kind":"signal","pad":"\#(padding)"}"#.utf8)
        case 7:
            return Array(#"{"v":1,"kind":"signal","x":"#.utf8) + ReliabilityMutation.deepNesting(random.int(1...5000))
                + [0x7D]
        case 8:
            // Several mutations at once.
            ReliabilityMutation.flip(&line, count: random.int(1...8), &random)
            ReliabilityMutation.insertBadUTF8(&line, &random)
            line = Array(line.prefix(random.int(0...line.count)))
        default:
            break  // unmodified: must parse
        }
        return line
    }

    /// What a successfully parsed doorbell must satisfy (the rules `parse` promises to enforce).
    static func checkValid(_ message: Doorbell, context: String) throws {
        #expect(message.v == Doorbell.version, "\(context)")
        if let id = message.id {
            #expect((try? DomainPaths.validateRequestID(id)) != nil, "\(context): accepted id \(id.debugDescription)")
            #expect(!id.contains("/") && !id.contains("."), "\(context)")
        }
        if message.reply == true { #expect(message.id != nil, "\(context): reply without id") }
        if message.kind == .probe {
            #expect(message.probe != nil && message.id != nil && message.reply == true, "\(context): incomplete probe")
        }
        // What was accepted survives its own encoding unchanged.
        var line = try message.line()
        #expect(line.last == 0x0A, "\(context)")
        line.removeLast()
        #expect(try Doorbell.parse(line) == message, "\(context): round trip")
    }

    @Test(
        "Doorbell.parse on random, truncated, flipped, wrongly typed, non-UTF-8, oversized and deep lines: valid or Malformed, never anything else"
    )
    func doorbellParseFuzz() throws {
        let seed = TestScale.seed
        var accepted = 0
        var rejected = 0
        let result = ReliabilityFuzzBudget(cases: 6000, seconds: 2).run { index in
            var random = SeededRandom.forCase(index, seed: seed)
            let line = Data(Self.hostileLine(&random))
            let context =
                "seed \(seed) case \(index), line \(String(decoding: line.prefix(120), as: UTF8.self).debugDescription)"
            do {
                let message = try Doorbell.parse(line)
                accepted += 1
                try Self.checkValid(message, context: context)
            } catch let malformed as Doorbell.Malformed {
                rejected += 1
                #expect(!malformed.reason.isEmpty, "\(context)")
                #expect(malformed.description == malformed.reason, "\(context)")
            } catch {
                Issue.record("\(context): threw \(type(of: error)) instead of Doorbell.Malformed: \(error)")
            }
        }
        #expect(accepted > 0 && rejected > 0, "the generator should produce both valid and malformed lines")
        print(
            "fuzz: \(result.cases) doorbell lines (\(accepted) valid, \(rejected) malformed), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
        )
    }

    @Test("Every fixed hostile shape is Malformed; every corpus line parses")
    func fixedShapes() throws {
        for shape in Self.wrongShapes {
            #expect(throws: Doorbell.Malformed.self, "\(shape.debugDescription)") {
                try Doorbell.parse(Data(shape.utf8))
            }
        }
        for bad in ReliabilityBadUTF8.samples {
            var line = Array(#"{"v":1,"kind":"signal","id":""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(throws: Doorbell.Malformed.self) { try Doorbell.parse(Data(line)) }
            line = bad + Array(#"{"v":1,"kind":"signal"}"#.utf8)
            #expect(throws: Doorbell.Malformed.self) { try Doorbell.parse(Data(line)) }
        }
        for line in Self.corpus {
            try Self.checkValid(try Doorbell.parse(Data(line.utf8)), context: line)
        }
    }

    /// The line buffer's private storage, read through reflection (the bound is the property under test).
    static func storedBytes(_ buffer: BoundedLineBuffer) -> Int? {
        Mirror(reflecting: buffer).children.first { $0.label == "buffer" }.flatMap { ($0.value as? [UInt8])?.count }
    }

    /// The reference model: split the whole stream at newlines; a complete line longer than the limit is
    /// `.oversized`, and so is an unfinished one that already passed it.
    static func model(_ stream: [UInt8], limit: Int) -> [BoundedLineBuffer.Item] {
        var items: [BoundedLineBuffer.Item] = []
        let segments = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let complete = index < segments.count - 1
            if segment.count > limit {
                items.append(.oversized)
            } else if complete {
                items.append(.line(Data(segment)))
            }
        }
        return items
    }

    @Test(
        "BoundedLineBuffer on random streams in random chunks equals the reference model and never holds more than its limit"
    )
    func lineBufferFuzz() throws {
        let seed = TestScale.seed
        var totalBytes = 0
        var oversized = 0
        let result = try ReliabilityFuzzBudget(cases: 1500, seconds: 2).run { index in
            var random = SeededRandom.forCase(index, seed: seed)
            let limit = random.pick([1, 2, 16, 100, 4096])
            var stream: [UInt8] = []
            for _ in 0..<random.int(0...20) {
                switch random.int(0..<4) {
                case 0: stream += random.bytes(random.int(0...(limit * 3)))
                case 1: stream += Array(random.pick(Self.corpus).utf8) + [0x0A]
                case 2: stream += [UInt8](repeating: 0x41, count: random.int(max(0, limit - 2)...(limit + 2))) + [0x0A]
                default: stream += [UInt8](repeating: 0x0A, count: random.int(1...3))
                }
            }
            totalBytes += stream.count
            var buffer = BoundedLineBuffer(limit: limit)
            var items: [BoundedLineBuffer.Item] = []
            var offset = 0
            while offset < stream.count {
                let size = random.int(1...max(1, min(stream.count - offset, limit * 2 + 7)))
                items += stream[offset..<(offset + size)].withUnsafeBytes { buffer.append($0) }
                let held = try #require(Self.storedBytes(buffer), "BoundedLineBuffer has no 'buffer' field any more")
                #expect(held <= limit, "seed \(seed) case \(index): holds \(held) bytes, limit \(limit)")
                offset += size
            }
            let expected = Self.model(stream, limit: limit)
            #expect(items == expected, "seed \(seed) case \(index): limit \(limit), stream of \(stream.count) bytes")
            oversized += items.filter { $0 == .oversized }.count
        }
        #expect(result.cases > 0)
        print(
            "fuzz: \(result.cases) line-buffer streams (\(totalBytes) bytes, \(oversized) oversized lines), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
        )
    }

    @Test(
        "1 MB without a newline, then a valid line: .oversized once, then the line; the buffer stays within its limit")
    func megabyteWithoutNewline() throws {
        var buffer = BoundedLineBuffer()
        var items: [BoundedLineBuffer.Item] = []
        let chunk = [UInt8](repeating: 0x7B, count: 4096)
        for _ in 0..<(1 << 20) / chunk.count {
            items += chunk.withUnsafeBytes { buffer.append($0) }
            #expect((Self.storedBytes(buffer) ?? .max) <= buffer.limit)
        }
        // One more megabyte in a single append.
        let big = [UInt8](repeating: 0xFF, count: 1 << 20)
        items += big.withUnsafeBytes { buffer.append($0) }
        #expect((Self.storedBytes(buffer) ?? .max) <= buffer.limit)
        #expect(items == [.oversized])

        let valid = Array(#"{"v":1,"kind":"signal"}"#.utf8)
        let tail = [0x0A] + valid + [0x0A]
        items = tail.withUnsafeBytes { buffer.append($0) }
        #expect(items == [.line(Data(valid))])
        let line = try #require({ if case .line(let data) = items.first { return data } else { return nil } }())
        #expect(try Doorbell.parse(line).kind == .signal)
        #expect(Self.storedBytes(buffer) == 0)
        print("fuzz: 2 MB without a newline → 1 oversized, then the valid line")
    }
}
