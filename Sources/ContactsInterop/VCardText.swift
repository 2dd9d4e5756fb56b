import Foundation

/// Escaping of text values.
enum VCardText {
    /// Undoes `\\`, `\,`, `\;`, `\n`/`\N`, `\:` (as Google writes in URLs) and `\"` (as Gmail and
    /// macOS Address Book write); any other backslash is kept as written. In 2.1 only `\\`, `\,`,
    /// `\;`, `\:` and `\"` are escapes.
    static func unescape(_ text: String, version21: Bool = false) -> String {
        guard text.unicodeScalars.contains("\\") else { return normalizeNewlines(text) }
        var out = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            switch iterator.next() {
            case "\\"?: out.append("\\")
            case ","?: out.append(",")
            case ";"?: out.append(";")
            case ":"?: out.append(":")
            case "\""?: out.append("\"")
            case "n"? where !version21, "N"? where !version21: out.append("\n")
            case let other?:
                out.append("\\")
                out.append(other)
            case nil: out.append("\\")
            }
        }
        return normalizeNewlines(String(out))
    }

    /// Splits a structured value (`N`, `ADR`, `ORG`) at semicolons that are not escaped, and
    /// unescapes each component. Unescaped commas (4.0 list separators) are kept as commas.
    static func components(_ text: String, version21: Bool = false) -> [String] {
        splitUnescaped(text, at: ";").map { unescape($0, version21: version21) }
    }

    /// The separator that stands for a list-value comma in the stored text: `NICKNAME:Johnny,JD`
    /// reads as "Johnny, JD", and "Johnny, JD" is written back as the two values `Johnny,JD`.
    static let listSeparator = ", "

    /// Splits a value (or one component) at commas that are not escaped (vCard 3.0 and 4.0 list
    /// separators), unescapes each value and joins them with `listSeparator`.
    static func listValue(_ text: String, version21: Bool = false) -> String {
        guard !version21, text.unicodeScalars.contains(",") else { return unescape(text, version21: version21) }
        return listParts(text).map { unescape($0) }.joined(separator: listSeparator)
    }

    /// Like `components(_:version21:)`, but each component is a list (`N:Richter,James;…`).
    static func listComponents(_ text: String, version21: Bool = false) -> [String] {
        splitUnescaped(text, at: ";").map { listValue($0, version21: version21) }
    }

    /// Writes stored text as a list value: split at `listSeparator`, each value escaped, joined
    /// with commas, so another reader sees the values `Johnny` and `JD`. Text that would give an
    /// empty value (`"a, "`) is written as one escaped value: other readers drop empty list values.
    static func escapeList(_ text: String) -> String {
        let values = text.components(separatedBy: listSeparator)
        guard values.count > 1, !values.contains(where: \.isEmpty) else { return escape(text) }
        return values.map { escape($0) }.joined(separator: ",")
    }

    private static func listParts(_ text: String) -> [String] {
        splitUnescaped(text, at: ",")
    }

    /// Splits at `separator` where it is not escaped; the parts are still escaped.
    private static func splitUnescaped(_ text: String, at separator: Unicode.Scalar) -> [String] {
        var parts: [String.UnicodeScalarView] = [.init()]
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == "\\" {
                parts[parts.count - 1].append(scalar)
                if let next = iterator.next() { parts[parts.count - 1].append(next) }
            } else if scalar == separator {
                parts.append(.init())
            } else {
                parts[parts.count - 1].append(scalar)
            }
        }
        return parts.map { String($0) }
    }

    /// Escapes a text value: backslash, comma, semicolon and line breaks.
    static func escape(_ text: String) -> String {
        escape(text, listSeparators: true)
    }

    /// Escapes backslashes, commas and line breaks in a single value that is not a list: TEL (iOS
    /// writes `,` for a pause; RFC 6350 §3.4 requires the escape), URL, IMPP and X-SOCIALPROFILE.
    /// Other readers (Apple's, vobject) read every value as a possible list and otherwise cut it at
    /// the first comma; Apple Contacts writes these commas escaped too. Semicolons stay literal.
    static func escapeSingleValue(_ text: String) -> String {
        escape(text, listSeparators: false, commas: true)
    }

    private static func escape(_ text: String, listSeparators: Bool, commas: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "," where listSeparators || commas: out.append(contentsOf: "\\,".unicodeScalars)
            case ";" where listSeparators: out.append(contentsOf: "\\;".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n" where afterCR: break
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// CRLF and lone CR become LF.
    static func normalizeNewlines(_ text: String) -> String {
        guard text.unicodeScalars.contains("\r") else { return text }
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                afterCR = true
                continue
            }
            if scalar == "\n", afterCR {
                afterCR = false
                continue
            }
            afterCR = false
            out.append(scalar)
        }
        return String(out)
    }
}
