import AppGroupStore
import Foundation

/// Contact matching after Apple's Contacts predicates: `predicateForContacts(matchingName:)`,
/// `predicateForContacts(matchingEmailAddress:)` and `predicateForContacts(matching: CNPhoneNumber)`.
public enum ContactSearch {
    /// What to look for.
    public enum Query: Equatable, Hashable, Sendable {
        /// Every whitespace-separated word is a prefix of some word of the given, middle, family,
        /// nick or organization name, ignoring case and diacritics.
        case name(String)
        /// The whole address, trimmed, ignoring case.
        case email(String)
        /// The same digits, or one number ending with the other when the shorter has at least 7 digits.
        /// Only digits count: `(408) 555-0101` matches `+1 408 555 0101`, but a national trunk prefix
        /// is not understood (`06 12 34 56 78` does not match `+33 6 12 34 56 78`).
        case phone(String)
    }

    /// The records that match `query`, in their original order.
    public static func search(_ records: [ContactRecord], _ query: Query) -> [ContactRecord] {
        switch query {
        case .name(let text):
            let words = words(text)
            return words.isEmpty ? [] : records.filter { matches($0, nameWords: words) }
        default:
            return records.filter { matches($0, query: query) }
        }
    }

    /// Whether `record` matches `query`.
    public static func matches(_ record: ContactRecord, query: Query) -> Bool {
        switch query {
        case .name(let text):
            let words = words(text)
            return !words.isEmpty && matches(record, nameWords: words)
        case .email(let text):
            let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !wanted.isEmpty else { return false }
            return record.emailAddresses.contains {
                $0.value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == wanted
            }
        case .phone(let text):
            let wanted = digits(text)
            guard !wanted.isEmpty else { return false }
            return record.phoneNumbers.contains { phoneDigitsMatch(digits($0.value), wanted) }
        }
    }

    // MARK: Name

    static func matches(_ record: ContactRecord, nameWords query: [String]) -> Bool {
        let names = nameWords(record)
        return query.allSatisfy { word in names.contains { $0.hasPrefix(word) } }
    }

    /// The folded words a name query is matched against (also the keys of the name index).
    static func nameWords(_ record: ContactRecord) -> [String] {
        [record.givenName, record.middleName, record.familyName, record.nickname, record.organizationName].flatMap(
            words)
    }

    /// Folded (case- and diacritic-insensitive) words, split at whitespace.
    static func words(_ text: String) -> [String] {
        if let words = asciiWords(text) { return words }
        return foundationWords(text)
    }

    /// `words` through Foundation's folding (any text).
    static func foundationWords(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// For each ASCII byte, what `foundationWords` makes of it: its folded byte, `separator` for
    /// whitespace, or `unknown` when its folding is not one ASCII byte (then text holding it takes
    /// Foundation's path). Computed from Foundation itself, so the two paths agree by construction;
    /// `ContactSearchWordsTests` checks them against each other.
    private static let asciiFolding: [UInt16] = (0..<128).map { byte in
        let character = Character(Unicode.Scalar(UInt8(byte)))
        if character.isWhitespace { return separator }
        let folded = Array(
            String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8)
        return folded.count == 1 && folded[0] < 0x80 && !Character(Unicode.Scalar(folded[0])).isWhitespace
            ? UInt16(folded[0]) : unknown
    }
    private static let separator: UInt16 = 0x100
    private static let unknown: UInt16 = 0x200

    /// `words` for ASCII text without Foundation (a name index of a million contacts folds five
    /// names each); nil for any other text.
    static func asciiWords(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var words: [String] = []
            var word: [UInt8] = []
            // An index loop, not `for byte in bytes`: a debug build runs that through the generic iterator.
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                guard byte < 0x80 else { return nil }
                let folded = asciiFolding[Int(byte)]
                if folded == separator {
                    if !word.isEmpty {
                        words.append(String(decoding: word, as: UTF8.self))
                        word.removeAll(keepingCapacity: true)
                    }
                } else if folded == unknown {
                    return nil
                } else {
                    word.append(UInt8(folded))
                }
            }
            if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
            return words
        }
    }

    // MARK: Phone

    /// The decimal digits of a phone number (any script's decimal digits, as ASCII); everything else,
    /// including a leading `+`, is dropped.
    static func digits(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars where scalar.properties.numericType == .decimal {
            if let value = scalar.properties.numericValue, value >= 0, value <= 9 {
                out.append(Character(String(Int(value))))
            }
        }
        return out
    }

    static func phoneDigitsMatch(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        return short.count >= 7 && long.hasSuffix(short)
    }
}
