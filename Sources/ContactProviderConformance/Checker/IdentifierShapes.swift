import ContactProviderTesting
import Foundation

/// The shapes of the identifiers the kit gives its contacts (issue 30, item 7).
///
/// Real stores hand out identifiers of every kind: `UUID().uuidString` (upper case), server UIDs
/// in mixed case, hrefs and e-mail-like keys with `@ / : % + #` and spaces, names in any script in
/// either Unicode normalisation form, long keys, and keys that differ only in case. A provider that
/// escapes, unescapes, case-folds or truncates identifiers on the way loses or merges contacts with
/// such identifiers, and passes when every identifier is a short lowercase token. The kit cycles
/// through every shape, so any run of eight contacts holds each once, through add, update, delete
/// and re-add, in every backend.
///
/// Swift compares strings by canonical equivalence, so `café` precomposed and decomposed are one
/// identifier to the system as to Swift on iOS: the two forms go to different contacts, never to a
/// pair meant to be told apart; what is checked is that each survives the provider's store as written.
enum IdentifierShape: Int, CaseIterable, CustomStringConvertible {
    /// `kit-42-1`: a short lowercase token.
    case plain
    /// The previous (plain) identifier in upper case: a pair that differs only in case.
    case caseTwin
    /// An upper-case UUID string, as `UUID().uuidString` gives.
    case upperCaseUUID
    /// `@ / : % + #` and spaces, with a `%2F` that percent-decoding would turn into a slash.
    case punctuated
    /// Non-ASCII letters in normalisation form C (precomposed).
    case precomposed
    /// A UUID string in mixed case, as some servers write UIDs.
    case mixedCaseUUID
    /// Non-ASCII letters in normalisation form D (decomposed).
    case decomposed
    /// 200 bytes, near the longest identifier a store is likely to keep in a file name.
    case long

    /// The shape of contact number `number` (1, 2, …) of a run.
    static func of(number: Int) -> IdentifierShape {
        allCases[(number - 1) % allCases.count]
    }

    var description: String {
        switch self {
        case .plain: return "plain token"
        case .caseTwin: return "differs from another only in case"
        case .upperCaseUUID: return "upper-case UUID"
        case .punctuated: return "with @ / : % + # and spaces"
        case .precomposed: return "non-ASCII, precomposed (NFC)"
        case .mixedCaseUUID: return "mixed-case UUID"
        case .decomposed: return "non-ASCII, decomposed (NFD)"
        case .long: return "200 bytes long"
        }
    }

    /// The identifier of contact `number` under `prefix` (`kit-42`); the same for the same arguments.
    static func identifier(prefix: String, number: Int) -> String {
        switch of(number: number) {
        case .plain: return "\(prefix)-\(number)"
        case .caseTwin: return "\(prefix)-\(number - 1)".uppercased()
        case .upperCaseUUID: return uuid(prefix: prefix, number: number).uppercased()
        case .punctuated: return "\(prefix) \(number)/home@example.com:50%2F+#x"
        case .precomposed: return "\(prefix)-\(number)-caf\u{E9}-\u{C5}ngstr\u{F6}m-\u{4E2D}\u{6587}"
        case .mixedCaseUUID:
            let characters = uuid(prefix: prefix, number: number).enumerated().map { offset, character in
                offset.isMultiple(of: 2) ? character.uppercased() : character.lowercased()
            }
            return characters.joined()
        case .decomposed: return "\(prefix)-\(number)-cafe\u{301}-A\u{30A}ngstro\u{308}m"
        case .long:
            let head = "\(prefix)-\(number)-"
            return head + String(repeating: "x", count: 200 - head.utf8.count)
        }
    }

    /// A UUID string made from `prefix` and `number` (lower case), so a run's identifiers repeat with its seed.
    private static func uuid(prefix: String, number: Int) -> String {
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: prefix.hashValueStable &+ number &* 1_000_003))
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }
}

extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per process).
    fileprivate var hashValueStable: Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash)
    }
}
