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

    /// The fields `nameWords` reads (all it reads: the name index's compaction decodes only these).
    static let nameFields: [ContactRecord.Field] = [.givenName, .middleName, .familyName, .nickname, .organizationName]

    /// The folded words a name query is matched against (also the keys of the name index).
    static func nameWords(_ record: ContactRecord) -> [String] {
        // Name by name, not `[…].flatMap(words)`: a debug build (`swift run`) runs `flatMap`
        // unspecialized, looking up array metadata at run time, for every contact a compaction
        // indexes (9% of a debug import, perf). An empty name has no words.
        var all: [String] = []
        appendWords(of: record.givenName, to: &all)
        appendWords(of: record.middleName, to: &all)
        appendWords(of: record.familyName, to: &all)
        appendWords(of: record.nickname, to: &all)
        appendWords(of: record.organizationName, to: &all)
        return all
    }

    /// Appends the folded words of `name` to `all` (an index loop: no generic `append(contentsOf:)`).
    private static func appendWords(of name: String, to all: inout [String]) {
        guard !name.isEmpty else { return }
        let found = words(name)
        if all.isEmpty {
            all = found
            return
        }
        var index = 0
        while index < found.count {
            all.append(found[index])
            index += 1
        }
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
    static let asciiFolding: [UInt16] = (0..<128).map { byte in
        let character = Character(Unicode.Scalar(UInt8(byte)))
        if character.isWhitespace { return separator }
        let folded = Array(
            String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8)
        return folded.count == 1 && folded[0] < 0x80 && !Character(Unicode.Scalar(folded[0])).isWhitespace
            ? UInt16(folded[0]) : unknown
    }
    static let separator: UInt16 = 0x100
    static let unknown: UInt16 = 0x200

    /// `words` for ASCII text without Foundation (a name index of a million contacts folds five
    /// names each); nil for any other text.
    static func asciiWords(_ text: String) -> [String]? {
        var text = text
        // Read from a local, not the static: a debug build retains and releases a static array on
        // every access, here once per byte.
        let folding = asciiFolding
        return text.withUTF8 { bytes -> [String]? in
            var words: [String] = []
            // An index loop, not `for byte in bytes`: a debug build runs that through the generic iterator.
            // Each word is folded straight into its string (`foldedWord`), not a byte at a time into an
            // array: an `append` call per byte of every name a debug build indexes.
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte < 0x80 else { return nil }
                let folded = folding[Int(byte)]
                if folded == unknown { return nil }
                if folded == separator {
                    if index > start { words.append(foldedWord(bytes, from: start, to: index, folding)) }
                    start = index + 1
                }
                index += 1
            }
            if index > start { words.append(foldedWord(bytes, from: start, to: index, folding)) }
            return words
        }
    }

    /// The ASCII bytes `start..<end` of `bytes`, folded by `folding` (`asciiFolding`; every one is
    /// known to fold to one byte).
    private static func foldedWord(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, _ folding: [UInt16]
    ) -> String {
        String(unsafeUninitializedCapacity: end - start) { word in
            var offset = 0
            while start + offset < end {
                word[offset] = UInt8(folding[Int(bytes[start + offset])])
                offset += 1
            }
            return offset
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
