import Foundation

/// A logical (unfolded) line of a vCard file with the 1-based number of its first physical line.
struct VCardLine: Sendable {
    var number: Int
    var text: String
}

/// A parameter of a content line: `TYPE=home,work` or a bare 2.1 `CELL`.
struct VCardParameter: Sendable {
    /// Upper-cased name (`TYPE`, `ENCODING`, `CHARSET`, ...).
    var name: String
    /// The values, unquoted, split at commas outside quotes, caret-decoded (RFC 6868).
    var values: [String]
}

/// One content line: `group.NAME;param=value:value`.
struct VCardProperty: Sendable {
    var line: Int
    /// Lower-cased group (`item1`), or nil.
    var group: String?
    /// Upper-cased property name.
    var name: String
    var parameters: [VCardParameter]
    /// The value as written, after the first colon outside quotes (still escaped and encoded).
    var rawValue: String

    /// All values of the named parameter (upper-cased name).
    func values(of parameter: String) -> [String] {
        parameters.filter { $0.name == parameter }.flatMap(\.values)
    }

    func has(_ parameter: String) -> Bool {
        parameters.contains { $0.name == parameter }
    }

    /// Lower-cased TYPE values, with lists inside quoted values (`TYPE="voice,home"`) split too.
    var types: [String] {
        writtenTypes.map { $0.lowercased() }
    }

    /// The TYPE values as written (case kept), split like `types`: a service name such as
    /// `X-SOCIALPROFILE;type=Mastodon` keeps its spelling.
    var writtenTypes: [String] {
        values(of: "TYPE").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The upper-cased ENCODING (`B`, `BASE64`, `QUOTED-PRINTABLE`), if any.
    var encoding: String? {
        values(of: "ENCODING").first?.trimmingCharacters(in: .whitespaces).uppercased()
    }

    var isBase64: Bool { encoding == "B" || encoding == "BASE64" }
    var isQuotedPrintable: Bool { encoding == "QUOTED-PRINTABLE" || encoding == "QP" }
}

/// Splitting, unfolding and parsing of content lines.
enum VCardSyntax {
    /// Splits at CRLF, LF or a lone CR. A final line break does not start an empty line. CRs
    /// directly before an LF belong to that line break: iOS 5 and 6 end lines with `\r\r\n`, and
    /// counting the extra CR as an empty line would break the unfolding of the next line.
    static func physicalLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var pendingCRs = 0
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        for scalar in scalars {
            if scalar == "\r" {
                pendingCRs += 1
                continue
            }
            if scalar == "\n" {
                lines.append(String(current))
                current = .init()
                pendingCRs = 0
                continue
            }
            if pendingCRs > 0 {
                // Lone CRs (old Mac files): each one ends a line.
                lines.append(String(current))
                current = .init()
                lines.append(contentsOf: repeatElement("", count: pendingCRs - 1))
                pendingCRs = 0
            }
            current.append(scalar)
        }
        if !current.isEmpty || pendingCRs > 0 { lines.append(String(current)) }
        if pendingCRs > 1 { lines.append(contentsOf: repeatElement("", count: pendingCRs - 1)) }
        return lines
    }

    /// `physicalLines(_:)` numbered from 1.
    static func numberedLines(_ text: String) -> [VCardLine] {
        physicalLines(text).enumerated().map { VCardLine(number: $0.offset + 1, text: $0.element) }
    }

    /// Joins folded lines (a line break followed by a space or tab), quoted-printable soft line
    /// breaks (`=` at the end of a QUOTED-PRINTABLE line) and, in 2.1 cards, base64 data continued
    /// on unindented lines.
    static func logicalLines(_ physical: [String]) -> [VCardLine] {
        logicalLines(physical.enumerated().map { VCardLine(number: $0.offset + 1, text: $0.element) })
    }

    /// `logicalLines(_:)` for lines that carry their own numbers (lines already joined at the byte
    /// level keep the number of their first physical line).
    static func logicalLines(_ physical: [VCardLine]) -> [VCardLine] {
        var result: [VCardLine] = []
        var index = 0
        var version21 = false
        while index < physical.count {
            let start = physical[index].number
            var text = physical[index].text
            index += 1
            // The header (before the first colon) decides QP and base64 continuations; it is read
            // once it is complete, so long folded values are not re-parsed line after line.
            var header: (quotedPrintable: Bool, base64: Bool)?
            while index < physical.count {
                let next = physical[index].text
                if header == nil, text.unicodeScalars.contains(":") { header = headerParameters(text) }
                let marker = next.trimmingCharacters(in: .whitespaces).uppercased()
                let isCardBoundary = marker == "END:VCARD" || marker == "BEGIN:VCARD"
                if header?.quotedPrintable == true, text.unicodeScalars.last == "=", !isCardBoundary {
                    text.unicodeScalars.removeLast()
                    text += next
                } else if let first = next.unicodeScalars.first, first == " " || first == "\t" {
                    text += String(next.unicodeScalars.dropFirst())
                } else if version21, header?.base64 == true, isBase64Continuation(next) {
                    text += next
                } else {
                    break
                }
                index += 1
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
            if trimmed == "BEGIN:VCARD" {
                version21 = false
            } else if trimmed.hasPrefix("VERSION:") {
                version21 = trimmed == "VERSION:2.1"
            }
            result.append(VCardLine(number: start, text: text))
        }
        return result
    }

    private static func headerParameters(_ text: String) -> (quotedPrintable: Bool, base64: Bool) {
        guard let property = parse(VCardLine(number: 0, text: text)) else { return (false, false) }
        return (property.isQuotedPrintable, property.isBase64)
    }

    private static func isBase64Continuation(_ line: String) -> Bool {
        !line.isEmpty
            && line.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "+" || $0 == "/" || $0 == "=" || $0 == "-" || $0 == "_"
            }
    }

    /// Parses a content line, or returns nil when it has no colon.
    static func parse(_ line: VCardLine) -> VCardProperty? {
        let scalars = Array(line.text.unicodeScalars)
        guard let colon = colonIndex(scalars, quoteAware: true) ?? colonIndex(scalars, quoteAware: false) else {
            return nil
        }
        let segments = split(scalars[..<colon], at: ";")
        var nameText = String(String.UnicodeScalarView(segments.first ?? []))
            .trimmingCharacters(in: .whitespaces)
        var group: String?
        if let dot = nameText.firstIndex(of: ".") {
            group = String(nameText[..<dot]).lowercased()
            nameText = String(nameText[nameText.index(after: dot)...])
        }
        var parameters: [VCardParameter] = []
        for segment in segments.dropFirst() {
            if let parameter = parameter(segment) { parameters.append(parameter) }
        }
        return VCardProperty(
            line: line.number, group: group, name: nameText.uppercased(), parameters: parameters,
            rawValue: String(String.UnicodeScalarView(scalars[(colon + 1)...])))
    }

    private static func colonIndex(_ scalars: [Unicode.Scalar], quoteAware: Bool) -> Int? {
        var inQuotes = false
        for (offset, scalar) in scalars.enumerated() {
            if quoteAware, scalar == "\"" {
                inQuotes.toggle()
            } else if scalar == ":", !inQuotes {
                return offset
            }
        }
        return nil
    }

    /// Splits at `separator` outside double quotes (quotes are kept).
    private static func split(_ scalars: ArraySlice<Unicode.Scalar>, at separator: Unicode.Scalar)
        -> [[Unicode.Scalar]]
    {
        var parts: [[Unicode.Scalar]] = [[]]
        var inQuotes = false
        for scalar in scalars {
            if scalar == "\"" { inQuotes.toggle() }
            if scalar == separator, !inQuotes {
                parts.append([])
            } else {
                parts[parts.count - 1].append(scalar)
            }
        }
        return parts
    }

    private static let bareEncodings: Set<String> = ["BASE64", "B", "QUOTED-PRINTABLE", "8BIT", "7BIT"]

    private static func parameter(_ scalars: [Unicode.Scalar]) -> VCardParameter? {
        let text = String(String.UnicodeScalarView(scalars))
        guard let equals = scalars.firstIndex(of: "=") else {
            let bare = text.trimmingCharacters(in: .whitespaces)
            guard !bare.isEmpty else { return nil }
            let upper = bare.uppercased()
            if bareEncodings.contains(upper) { return VCardParameter(name: "ENCODING", values: [bare]) }
            if upper.hasPrefix("CHARSET") { return nil }
            return VCardParameter(name: "TYPE", values: [bare])
        }
        let name = String(String.UnicodeScalarView(scalars[..<equals])).trimmingCharacters(in: .whitespaces)
            .uppercased()
        let values = split(scalars[(equals + 1)...], at: ",").map { raw -> String in
            var value = String(String.UnicodeScalarView(raw)).trimmingCharacters(in: .whitespaces)
            if value.unicodeScalars.count >= 2, value.unicodeScalars.first == "\"", value.unicodeScalars.last == "\"" {
                value = String(value.unicodeScalars.dropFirst().dropLast())
            } else {
                value = String(value.unicodeScalars.filter { $0 != "\"" })
            }
            return caretDecoded(value)
        }
        return VCardParameter(name: name, values: values)
    }

    /// RFC 6868: `^n` newline, `^^` caret, `^'` double quote.
    private static func caretDecoded(_ value: String) -> String {
        guard value.unicodeScalars.contains("^") else { return value }
        var out = String.UnicodeScalarView()
        var iterator = value.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "^" else {
                out.append(scalar)
                continue
            }
            switch iterator.next() {
            case "n"?: out.append("\n")
            case "^"?: out.append("^")
            case "'"?: out.append("\"")
            case let other?:
                out.append("^")
                out.append(other)
            case nil: out.append("^")
            }
        }
        return String(out)
    }
}
