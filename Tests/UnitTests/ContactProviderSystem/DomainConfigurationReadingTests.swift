import ContactProviderTesting
import Foundation
import Testing

@testable import ContactProviderSystem

/// `domain.json` read without `JSONDecoder` on its fast path (issue 27), against Foundation: the
/// files the host writes take the fast path and read as Foundation reads them; anything else is
/// read as Foundation reads it, or refused as Foundation refuses it.
@Suite("Domain configuration: the fast reader against Foundation's")
struct DomainConfigurationReadingTests {
    static let seed: UInt64 = 0xD0_3A11

    private static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\u{01}", "é", "☕️", "𝄞", "0", "="]
        return (0..<random.int(0...10)).map { _ in random.pick(pieces) }.joined()
    }

    static func configuration(_ random: inout SeededRandom) -> DomainConfiguration {
        var made = DomainConfiguration()
        made.enabled = random.chance(0.5)
        made.extensionPath = random.chance(0.7) ? "/work/.build/debug/" + text(&random) : nil
        made.pageSize = random.int(1...100_000)
        made.batchSize = random.int(1...100_000)
        made.hardCapMultiplier = random.int(1...Int(Int32.max))
        made.pageTimeoutSeconds =
            random.chance(0.5) ? Double(random.int(0...60)) : Double.random(in: 0..<100, using: &random)
        made.invalidateTimeoutSeconds = Double(random.int(0...10_000)) / 100
        made.idleTimeoutSeconds = random.chance(0.2) ? 1e9 : Double.random(in: 0..<600, using: &random)
        made.itemsLimit = random.int(0...2_000_000)
        let adapter = "exec:" + text(&random)
        made.backend = random.chance(0.5) ? random.pick(["seed-json:ContactItems.json", adapter]) : nil
        // Variable names need no escapes (a name with one is left to Foundation: "escaped key" below).
        for _ in 0..<random.int(0...3) {
            made.deviceEnvironment[random.pick(["TZ", "LANG", "LC_ALL", "CPS_É", "X"])] = text(&random)
        }
        return made
    }

    /// What `save(to:)` writes (pretty, sorted keys), without the file.
    static func saved(_ configuration: DomainConfiguration) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(configuration) + Data("\n".utf8)
    }

    @Test("every random configuration the host writes takes the fast path and reads back equal")
    func readsWhatTheHostWrites() throws {
        for index in 0..<300 {
            var random = SeededRandom.forCase(index, seed: Self.seed)
            let configuration = Self.configuration(&random)
            let data = try Self.saved(configuration)
            #expect(
                DomainConfiguration.fastDecode(data) == configuration,
                "case \(index) (seed \(Self.seed)): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// Edits of a valid file that Foundation reads differently, or refuses.
    private static let edits: [(String, @Sendable (String) -> String)] = [
        ("null value", { $0.replacingOccurrences(of: #""pageSize" : "#, with: #""pageSize" : null, "x" : "#) }),
        (
            "unknown key",
            { $0.replacingOccurrences(of: #""enabled" : "#, with: #""extra" : [1, {"a" : null}], "enabled" : "#) }
        ),
        ("duplicate key", { $0.replacingOccurrences(of: #""format" : 1"#, with: #""format" : 1, "format" : 2"#) }),
        (
            "integer as double",
            { $0.replacingOccurrences(of: #""itemsLimit" : "#, with: #""itemsLimit" : 1.0, "x" : "#) }
        ),
        (
            "exponent",
            { $0.replacingOccurrences(of: #""idleTimeoutSeconds" : "#, with: #""idleTimeoutSeconds" : 1E2, "x" : "#) }
        ),
        (
            "string for a number",
            { $0.replacingOccurrences(of: #""batchSize" : "#, with: #""batchSize" : "5", "x" : "#) }
        ),
        (
            "number for a string",
            { $0.replacingOccurrences(of: #""deviceEnvironment" : {"#, with: #""deviceEnvironment" : {"N" : 1, "#) }
        ),
        (
            "duplicate variable",
            {
                $0.replacingOccurrences(
                    of: #""deviceEnvironment" : {"#, with: #""deviceEnvironment" : {"A" : "1", "A" : "2", "#)
            }
        ),
        (
            "escaped key",
            {
                $0.replacingOccurrences(
                    of: #""deviceEnvironment" : {"#, with: #""deviceEnvironment" : {"\u0041" : "1", "#)
            }
        ),
        ("no format", { $0.replacingOccurrences(of: #""format""#, with: #""formats""#) }),
        ("not an object", { "[" + $0 + "]" }),
        ("cut", { String($0.dropLast(4)) }),
        ("trailing garbage", { $0 + "}" }),
    ]

    @Test("a file Foundation reads otherwise or refuses is read as Foundation reads it, or refused")
    func readsWhatFoundationReads() throws {
        for index in 0..<100 {
            var random = SeededRandom.forCase(index, seed: Self.seed ^ 0xED17)
            let file = String(decoding: try Self.saved(Self.configuration(&random)), as: UTF8.self)
            for (name, edit) in Self.edits {
                let edited = Data(edit(file).utf8)
                let foundation = try? JSONDecoder().decode(DomainConfiguration.self, from: edited)
                if let fast = DomainConfiguration.fastDecode(edited) {
                    #expect(fast == foundation, "case \(index), \(name): \(String(decoding: edited, as: UTF8.self))")
                }
            }
        }
    }

    @Test("load reports a malformed file as before, naming it")
    func malformed() throws {
        let path = NSTemporaryDirectory() + "/domain-\(UUID().uuidString).json"
        defer { unlink(path) }
        try Data(#"{"format": "one"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try DomainConfiguration.load(from: path) }
        do {
            _ = try DomainConfiguration.load(from: path)
        } catch {
            #expect("\(error)".contains(path), "\(error)")
        }
    }
}
