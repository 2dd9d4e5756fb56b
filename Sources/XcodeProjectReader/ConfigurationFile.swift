import Foundation

/// The settings of an `.xcconfig` file (a configuration's `baseConfigurationReference`), read as Xcode
/// reads them for one configuration of an iOS Simulator build.
///
/// What is read: `KEY = VALUE` lines (the value split into words as in the pbxproj), `//` comments
/// (anywhere on a line, as in Xcode), `#include "file"` and `#include? "file"` (relative to the
/// including file; `?`: a missing file is skipped), and conditional assignments `KEY[config=Debug]` or
/// `KEY[sdk=iphonesimulator*]` (patterns with `*`), which win over the plain `KEY` of the same file.
/// An assignment under any other condition (`arch=`, another SDK) is not this build's and is skipped.
/// `$(inherited)` in a later line of a file means the file's earlier value; left over, it means the
/// level below (the project's settings, for a target's file).
struct ConfigurationFile {
    /// Key → words; a word `$(inherited)` still to be resolved against the level below.
    private(set) var values: [String: [String]] = [:]
    /// Every file read, the `#include`d ones too (a build that used them is stale once one changes).
    private(set) var files: [String] = []

    /// The deepest `#include` chain followed before giving up (a file including itself).
    static let maximumDepth = 16

    /// Reads `path` for configuration `configuration`; `reference` is the pbxproj object named in errors.
    init(path: String, configuration: String, pbxprojPath: String, reference: String?) throws {
        var conditioned: [String: [String]] = [:]
        try read(path, configuration: configuration, depth: 0, conditioned: &conditioned) { message in
            XcodeProjectError(file: pbxprojPath, objectID: reference, message)
        }
        for (key, words) in conditioned { values[key] = Self.substitute(words, inherited: values[key]) }
    }

    private mutating func read(
        _ path: String, configuration: String, depth: Int, conditioned: inout [String: [String]],
        error: (String) -> XcodeProjectError
    ) throws {
        guard depth < Self.maximumDepth else {
            throw error(
                "(xcconfig \(path)) #include nests deeper than \(Self.maximumDepth): does a file include itself?")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw error("(xcconfig) cannot read \(path): the configuration file is missing or unreadable")
        }
        files.append(path)
        let text = String(decoding: data, as: UTF8.self)
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#include") {
                let optional = trimmed.hasPrefix("#include?")
                guard let open = trimmed.firstIndex(of: "\""), let close = trimmed.lastIndex(of: "\""), open < close
                else {
                    throw error("(xcconfig \(path):\(index + 1)) an #include without a quoted file name")
                }
                var included = String(trimmed[trimmed.index(after: open)..<close])
                if !included.hasPrefix("/") {
                    included = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                        included)
                }
                if optional && !FileManager.default.fileExists(atPath: included) { continue }
                try read(
                    (included as NSString).standardizingPath, configuration: configuration, depth: depth + 1,
                    conditioned: &conditioned, error: error)
                continue
            }
            // The `=` after the key's conditions (`KEY[sdk=…][config=…]`), if any.
            var keyEnd = trimmed.startIndex
            while let open = trimmed[keyEnd...].firstIndex(where: { $0 == "[" || $0 == "=" }), trimmed[open] == "[",
                let close = trimmed[open...].firstIndex(of: "]")
            {
                keyEnd = trimmed.index(after: close)
            }
            guard let equals = trimmed[keyEnd...].firstIndex(of: "=") else {
                throw error("(xcconfig \(path):\(index + 1)) '\(trimmed)' is not KEY = VALUE")
            }
            var key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let words = PropertyListWords.split(String(trimmed[trimmed.index(after: equals)...]))
            if let bracket = key.firstIndex(of: "[") {
                let conditions = key[bracket...]
                key = String(key[..<bracket])
                guard Self.applies(conditions, configuration: configuration) else { continue }
                conditioned[key] = Self.substitute(words, inherited: conditioned[key] ?? values[key])
            } else {
                values[key] = Self.substitute(words, inherited: values[key])
            }
        }
    }

    /// Whether every `[name=pattern]` of `conditions` holds for this build.
    private static func applies(_ conditions: Substring, configuration: String) -> Bool {
        for condition in conditions.split(whereSeparator: { $0 == "[" || $0 == "]" }) {
            let parts = condition.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2 else { return false }
            switch parts[0] {
            case "config": if !matches(configuration, parts[1]) { return false }
            case "sdk": if !matches("iphonesimulator", parts[1]) { return false }
            default: return false
            }
        }
        return true
    }

    /// Glob matching with `*` only, as xcconfig conditions use.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count > 1 else { return text == pattern }
        guard text.hasPrefix(pieces[0]) else { return false }
        var rest = Substring(text.dropFirst(pieces[0].count))
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(pieces.last!)
    }

    /// `words` with `$(inherited)` replaced by `inherited` when there is an earlier value.
    static func substitute(_ words: [String], inherited: [String]?) -> [String] {
        guard let inherited else { return words }
        return words.flatMap { PropertyListWords.isInherited($0) ? inherited : [$0] }
    }
}

/// How a setting's text becomes words, shared by the pbxproj and xcconfig files.
enum PropertyListWords {
    /// Splits at white space, keeping double-quoted runs together (the quotes dropped).
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character.isWhitespace && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.isEmpty ? [""] : words
    }

    /// Whether `word` is `$(inherited)` or `${inherited}`.
    static func isInherited(_ word: String) -> Bool { word == "$(inherited)" || word == "${inherited}" }
}
