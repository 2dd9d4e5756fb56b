import Foundation

/// A value of an old-style (OpenStep) property list, the format of `project.pbxproj`.
package enum PropertyListValue: Sendable, Equatable {
    /// A quoted or unquoted string (numbers and booleans are strings in this format).
    case string(String)
    /// `( a, b, )`.
    case array([PropertyListValue])
    /// `{ key = value; }`.
    case dictionary([String: PropertyListValue])
    /// `<0fa1 22>`.
    case data([UInt8])

    /// The string, if this is one.
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var array: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a dictionary.
    package var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}

/// Reads the old-style property list syntax as Xcode writes it in `project.pbxproj`, whatever the
/// object version: `/* */` and `//` comments anywhere, quoted strings with C and `\U` escapes,
/// unquoted tokens, objects on one line or many, trailing separators.
///
/// Foundation's `PropertyListSerialization` reads this format on Apple platforms only; the parser
/// is small and its errors say line and column, which a user editing the file by hand needs.
package struct PropertyListText {
    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0

    /// Parses `text`, the contents of `file` (named in errors).
    package static func parse(_ text: String, file: String) throws -> PropertyListValue {
        var parser = PropertyListText(scalars: Array(text.unicodeScalars), file: file)
        try parser.skipTrivia()
        let value = try parser.parseValue()
        try parser.skipTrivia()
        guard parser.index == parser.scalars.count else {
            throw parser.error("unexpected '\(parser.scalars[parser.index])' after the top-level value")
        }
        return value
    }

    private init(scalars: [Unicode.Scalar], file: String) {
        self.scalars = scalars
        self.file = file
    }

    private func error(_ message: String) -> XcodeProjectError {
        XcodeProjectError(file: file, line: line, column: index - lineStart + 1, message)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    /// Skips white space and comments.
    private mutating func skipTrivia() throws {
        while let scalar = current {
            if scalar.properties.isWhitespace {
                advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let next = current, next != "\n" { advance() }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = error("a comment is never closed ('*/' missing)")
                advance()
                advance()
                while true {
                    guard let next = current else { throw start }
                    if next == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func parseValue() throws -> PropertyListValue {
        guard let scalar = current else { throw error("the file ends where a value was expected") }
        switch scalar {
        case "{": return try parseDictionary()
        case "(": return try parseArray()
        case "<": return try parseData()
        case "\"", "'": return .string(try parseQuoted())
        default:
            guard Self.isUnquoted(scalar) else { throw error("unexpected '\(scalar)' where a value was expected") }
            return .string(parseUnquoted())
        }
    }

    private mutating func parseDictionary() throws -> PropertyListValue {
        advance()
        var entries: [String: PropertyListValue] = [:]
        while true {
            try skipTrivia()
            guard let scalar = current else { throw error("the file ends inside a dictionary ('}' missing)") }
            if scalar == "}" {
                advance()
                return .dictionary(entries)
            }
            guard case .string(let key) = try parseValue() else { throw error("a dictionary key must be a string") }
            try skipTrivia()
            guard current == "=" else { throw error("expected '=' after the key '\(key)'") }
            advance()
            try skipTrivia()
            let value = try parseValue()
            try skipTrivia()
            guard current == ";" else { throw error("expected ';' after the value of '\(key)'") }
            advance()
            entries[key] = value
        }
    }

    private mutating func parseArray() throws -> PropertyListValue {
        advance()
        var elements: [PropertyListValue] = []
        while true {
            try skipTrivia()
            guard let scalar = current else { throw error("the file ends inside an array (')' missing)") }
            if scalar == ")" {
                advance()
                return .array(elements)
            }
            elements.append(try parseValue())
            try skipTrivia()
            if current == "," {
                advance()
            } else if current != ")" {
                throw error("expected ',' or ')' in an array")
            }
        }
    }

    private mutating func parseData() throws -> PropertyListValue {
        advance()
        var bytes: [UInt8] = []
        var pending: UInt8?
        while true {
            try skipTrivia()
            guard let scalar = current else { throw error("the file ends inside data ('>' missing)") }
            if scalar == ">" {
                guard pending == nil else { throw error("data has an odd number of hex digits") }
                advance()
                return .data(bytes)
            }
            guard let digit = Self.hexDigit(scalar) else { throw error("'\(scalar)' is not a hex digit in data") }
            advance()
            if let high = pending {
                bytes.append(high << 4 | digit)
                pending = nil
            } else {
                pending = digit
            }
        }
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": return UInt8(scalar.value - 48)
        case "a"..."f": return UInt8(scalar.value - 87)
        case "A"..."F": return UInt8(scalar.value - 55)
        default: return nil
        }
    }

    private mutating func parseQuoted() throws -> String {
        let quote = scalars[index]
        let start = error("a string is never closed (\(quote) missing)")
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = current else { throw start }
            advance()
            if scalar == quote { return String(result) }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let escaped = current else { throw start }
            advance()
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "a": result.append("\u{07}")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "v": result.append("\u{0B}")
            case "U", "u":
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let digit = current, let number = UInt32(String(digit), radix: 16) else {
                        throw error("\\U must be followed by four hex digits")
                    }
                    value = value << 4 | number
                    advance()
                }
                guard let decoded = Unicode.Scalar(value) else { throw error("\\U\(value) is not a character") }
                result.append(decoded)
            case "0"..."7":
                var value = escaped.value - 48
                for _ in 0..<2 {
                    guard let digit = current, ("0"..."7").contains(digit) else { break }
                    value = value * 8 + digit.value - 48
                    advance()
                }
                result.append(Unicode.Scalar(value) ?? "?")
            default: result.append(escaped)
            }
        }
    }

    private mutating func parseUnquoted() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = current, Self.isUnquoted(scalar) {
            result.append(scalar)
            advance()
        }
        return String(result)
    }

    /// The characters an unquoted token may hold (as CoreFoundation's OpenStep reader accepts them).
    private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "+", "/", ":", ".", "-": return true
        default: return false
        }
    }
}
