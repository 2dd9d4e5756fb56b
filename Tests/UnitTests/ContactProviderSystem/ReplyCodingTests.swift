import ContactProviderTesting
import Foundation
import Testing

@testable import ContactProviderSystem

/// The provider's reply line, written and read without Foundation's coders, against Foundation:
/// the same bytes out, the same values (or a failure) in.
@Suite("Reply lines: the hand-written coder against Foundation's")
struct ReplyCodingTests {
    static let seed: UInt64 = 0x9E_41C7

    private static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "☕️", "𝄞", "R23:", "0", "…"]
        return (0..<random.int(0...12)).map { _ in random.pick(pieces) }.joined()
    }

    private static func number(_ random: inout SeededRandom) -> Double {
        switch random.below(6) {
        case 0: return Double(random.int(0...5000))
        case 1: return Double(random.int(0...1_000_000)) / 100
        case 2: return Double.random(in: 0..<1, using: &random)
        case 3: return Double.random(in: 0..<1e-6, using: &random)
        case 4: return Double.random(in: 1e15..<1e22, using: &random)
        default: return -Double.random(in: 0..<100, using: &random)
        }
    }

    private static func position(_ random: inout SeededRandom) -> SyncPosition? {
        random.chance(0.3)
            ? nil
            : SyncPosition(
                generationMarker: Data(random.bytes(random.int(0...60))), offset: random.int(-5...Int(Int32.max)))
    }

    private static func reportedError(_ random: inout SeededRandom) -> SyncReport.ReportedError? {
        random.chance(0.6)
            ? nil
            : SyncReport.ReportedError(
                code: random.chance(0.5) ? text(&random) : nil, rule: random.chance(0.5) ? text(&random) : nil,
                message: text(&random))
    }

    static func reply(_ random: inout SeededRandom) -> DoorbellReply {
        var report: SyncReport?
        if random.chance(0.8) {
            var made = SyncReport(enumeration: random.chance(0.5) ? "changes" : text(&random))
            made.pages = random.int(0...1000)
            made.batches = random.int(0...1000)
            made.updated = random.int(-1...2_000_000)
            made.deleted = random.int(0...2_000_000)
            made.systemCount = random.int(0...1_000_000)
            made.anchor = position(&random)
            made.nextPage = position(&random)
            made.durationMs = number(&random)
            made.restarted = random.chance(0.2)
            made.error = reportedError(&random)
            made.warnings = (0..<random.int(0...3)).map { _ in text(&random) }
            if random.chance(0.5) { made.callMilliseconds = (0..<random.int(0...4)).map { _ in number(&random) } }
            report = made
        }
        var reply = DoorbellReply(
            id: random.chance(0.9) ? UUID().uuidString : text(&random), ok: random.chance(0.7), report: report,
            error: reportedError(&random), trace: random.chance(0.2) ? text(&random) : nil)
        if random.chance(0.1) { reply.v = random.int(0...3) }
        if random.chance(0.2) { reply.callsFile = text(&random) }
        return reply
    }

    @Test("the fast reader numbers every key Foundation writes for a report with every field set")
    func knowsEveryReportKey() throws {
        var report = SyncReport(enumeration: "changes")
        report.anchor = SyncPosition(generationMarker: Data("g".utf8), offset: 1)
        report.nextPage = report.anchor
        report.error = SyncReport.ReportedError(code: "c", rule: "R1", message: "m")
        report.callMilliseconds = [1]
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any]
        // A field added to SyncReport and not to the fast path would be written by Foundation only.
        #expect(Set(try #require(object).keys) == Set(ReplyCoding.reportKeyNames))
    }

    @Test("every random reply is written byte for byte as Foundation writes it, and read back by both")
    func writesWhatFoundationWrites() throws {
        for index in 0..<500 {
            var random = SeededRandom.forCase(index, seed: Self.seed)
            let reply = Self.reply(&random)
            let ours = try ReplyCoding.encode(reply)
            let foundation = try ReplyCoding.foundationEncoder().encode(reply)
            #expect(
                ours == foundation,
                "case \(index) (seed \(Self.seed)): \(String(decoding: ours, as: UTF8.self)) != \(String(decoding: foundation, as: UTF8.self))"
            )
            #expect(try JSONDecoder().decode(DoorbellReply.self, from: ours) == reply, "case \(index)")
            // Foundation's own lines take the fast path.
            #expect(foundation.withUnsafeBytes { ReplyCoding.fastDecode($0) } == reply, "case \(index)")
        }
    }

    /// Edits of a valid line that Foundation reads differently, or refuses.
    private static let edits: [(String, @Sendable (String) -> String)] = [
        ("no id", { $0.replacingOccurrences(of: #""id":"#, with: #""di":"#) }),
        ("null report", { $0.replacingOccurrences(of: #""report":{"#, with: #""report":null,"x":{"#) }),
        ("unknown key", { $0.replacingOccurrences(of: #""ok":"#, with: #""extra":[1,{"a":null}],"ok":"#) }),
        ("duplicate key", { $0.replacingOccurrences(of: #""ok":true"#, with: #""ok":true,"ok":false"#) }),
        (
            "white space",
            { $0.replacingOccurrences(of: ",", with: " ,\n ").replacingOccurrences(of: ":", with: "\t: ") }
        ),
        ("exponent", { $0.replacingOccurrences(of: #""durationMs":"#, with: #""durationMs":1.5E+2,"x":"#) }),
        ("integer as double", { $0.replacingOccurrences(of: #""pages":"#, with: #""pages":1.0,"x":"#) }),
        ("leading zero", { $0.replacingOccurrences(of: #""durationMs":"#, with: #""durationMs":01,"x":"#) }),
        ("string for a number", { $0.replacingOccurrences(of: #""batches":"#, with: #""batches":"1","x":"#) }),
        ("bad base64", { $0.replacingOccurrences(of: #""generationMarker":""#, with: #""generationMarker":"*"#) }),
        ("escaped slash", { $0.replacingOccurrences(of: #""id":""#, with: #""id":"\/"#) }),
        ("unicode escape", { $0.replacingOccurrences(of: #""id":""#, with: #""id":"\u00e9\ud834\udd1e"#) }),
        ("lone surrogate", { $0.replacingOccurrences(of: #""id":""#, with: #""id":"\ud834"#) }),
        ("cut", { String($0.dropLast(3)) }),
        ("trailing garbage", { $0 + "x" }),
        ("missing warnings", { $0.replacingOccurrences(of: #""warnings":"#, with: #""warn":"#) }),
        ("null message", { $0.replacingOccurrences(of: #""message":""#, with: #""message":null,"m":""#) }),
    ]

    @Test("a line Foundation reads otherwise or refuses is read as Foundation reads it, or refused")
    func readsWhatFoundationReads() throws {
        for index in 0..<200 {
            var random = SeededRandom.forCase(index, seed: Self.seed ^ 0xED17)
            let line = String(decoding: try ReplyCoding.encode(Self.reply(&random)), as: UTF8.self)
            for (name, edit) in Self.edits {
                let edited = Data(edit(line).utf8)
                let foundation = try? JSONDecoder().decode(DoorbellReply.self, from: edited)
                let ours = try? ReplyCoding.decode(edited)
                #expect(ours == foundation, "case \(index), \(name): \(String(decoding: edited, as: UTF8.self))")
            }
        }
    }
}

/// Issue 31, item 6: a reply line a local process planted cannot crash the waiting host.
@Suite("Pipes: hostile reply lines are errors, never a trap")
struct HostileReplyLineTests {
    static let lines: [String] = [
        #"{"v":1,"id":"A","ok":true,"report":{"pages":12345678901234567890}}"#,
        #"{"v":1,"id":"A","ok":true,"x":"# + String(repeating: "[", count: 30_000)
            + String(repeating: "]", count: 30_000)
            + "}",
        #"{"v":1,"id":"A","ok":true,"x":"# + String(repeating: #"{"a":"#, count: 20_000) + "1"
            + String(repeating: "}", count: 20_000) + "}",
    ]

    @Test("20-digit numbers and deep nesting are refused with an error", arguments: 0..<lines.count)
    func refused(index: Int) {
        #expect(throws: (any Error).self) { try ReplyCoding.decode(Data(Self.lines[index].utf8)) }
    }

    @Test("a 23-digit number under a key a reply does not have is read as Foundation reads it")
    func bigNumberUnderUnknownKey() throws {
        let line = Data(#"{"v":1,"id":"A","ok":true,"x":-99999999999999999999999}"#.utf8)
        #expect(try ReplyCoding.decode(line) == DoorbellReply(id: "A", ok: true))
    }
}
