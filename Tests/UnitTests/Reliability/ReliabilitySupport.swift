import ContactProviderTesting
import Foundation
import TestSupport
import Testing

/// Runs fuzz cases: always the first `minimum` (so what a run covers never depends on how loaded the
/// machine is), then more until `cases` have run or `seconds` have passed, whichever comes first.
/// Case `i` is a pure function of the seed and `i`, so any failing case replays alone.
struct ReliabilityFuzzBudget {
    let cases: Int
    let seconds: Double
    /// Cases that run whatever the clock says: a twentieth of `cases`, at least one.
    let minimum: Int

    init(cases: Int, seconds: Double) {
        self.cases = TestScale.count(cases)
        self.seconds = TestScale.seconds(seconds)
        self.minimum = max(1, self.cases / 20)
    }

    /// Calls `body` with each case index; returns how many ran and the elapsed seconds.
    func run(_ body: (Int) throws -> Void) rethrows -> (cases: Int, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let limit = Duration.milliseconds(Int64(seconds * 1000))
        var ran = 0
        while ran < cases, ran < minimum || clock.now - start < limit {
            try body(ran)
            ran += 1
        }
        let elapsed = clock.now - start
        return (ran, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// Byte sequences that are not UTF-8 (lone continuation, overlong, surrogate, out of range, truncated).
enum ReliabilityBadUTF8 {
    static let samples: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0x80], [0xC0, 0xAF], [0xC3, 0x28], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    ]
}

/// Mutations shared by the fuzzers.
enum ReliabilityMutation {
    /// Flips `count` random bytes (XOR with a non-zero value).
    static func flip(_ data: inout [UInt8], count: Int, _ random: inout SeededRandom) {
        guard !data.isEmpty else { return }
        for _ in 0..<count {
            data[random.int(0..<data.count)] ^= UInt8(random.int(1...255))
        }
    }

    /// Inserts a non-UTF-8 sequence at a random position.
    static func insertBadUTF8(_ data: inout [UInt8], _ random: inout SeededRandom) {
        data.insert(contentsOf: random.pick(ReliabilityBadUTF8.samples), at: random.int(0...data.count))
    }

    /// Deeply nested arrays (parsers must bound their recursion).
    static func deepNesting(_ depth: Int) -> [UInt8] {
        Array(String(repeating: "[", count: depth).utf8) + Array(String(repeating: "]", count: depth).utf8)
    }
}

/// Files in a directory tree, by relative path, with their bytes (for "nothing changed" checks).
enum ReliabilityFiles {
    static func snapshot(_ directory: String) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return result }
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = FileManager.default.contents(atPath: path) ?? Data()
            }
        }
        return result
    }
}
