import CoreFoundation
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
        values(of: "TYPE").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
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
        var parts: [String.UnicodeScalarView] = [.init()]
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == "\\" {
                parts[parts.count - 1].append(scalar)
                if let next = iterator.next() { parts[parts.count - 1].append(next) }
            } else if scalar == ";" {
                parts.append(.init())
            } else {
                parts[parts.count - 1].append(scalar)
            }
        }
        return parts.map { unescape(String($0), version21: version21) }
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

    /// Escapes only backslashes and line breaks, for single values that are not lists (TEL, URL),
    /// where a literal comma or semicolon is clearer to other readers and reads back the same.
    static func escapeMinimal(_ text: String) -> String {
        escape(text, listSeparators: false)
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

/// Transfer encodings and character sets.
enum VCardCharset {
    /// The Foundation encoding for a CHARSET parameter, or nil when Foundation cannot convert it on
    /// this platform. Beyond the names below, any IANA name CoreFoundation knows is tried (measured
    /// on Linux: Shift_JIS, windows-1250/1251, GBK, GB2312, GB18030, Big5, KOI8-R, EUC-KR,
    /// ISO-2022-JP and ISO-8859-x convert; EUC-JP does not).
    static func encoding(named name: String) -> String.Encoding? {
        let upper = name.trimmingCharacters(in: .whitespaces).uppercased()
        switch upper {
        case "UTF-8", "UTF8": return .utf8
        case "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "LATIN-1", "L1": return .isoLatin1
        case "WINDOWS-1252", "CP1252", "CP-1252": return .windowsCP1252
        case "US-ASCII", "ASCII": return .ascii
        case "ISO-8859-2", "ISO8859-2", "LATIN2": return .isoLatin2
        case "UTF-16", "UTF16": return .utf16
        case "SJIS", "SHIFT-JIS", "X-SJIS": return ianaEncoding("Shift_JIS")
        default: return ianaEncoding(upper)
        }
    }

    /// The encoding CoreFoundation knows by this IANA name, if Foundation can convert it here (a
    /// known name can still lack a converter, as EUC-JP does on Linux).
    private static func ianaEncoding(_ name: String) -> String.Encoding? {
        guard let cfName = CFStringCreateWithCString(nil, name, CFStringBuiltInEncodings.UTF8.rawValue) else {
            return nil
        }
        let cfEncoding = CFStringConvertIANACharSetNameToEncoding(cfName)
        guard cfEncoding != kCFStringEncodingInvalidId else { return nil }
        let encoding = String.Encoding(rawValue: UInt(CFStringConvertEncodingToNSStringEncoding(cfEncoding)))
        // Every CHARSET a vCard names is ASCII-compatible or UTF-16/32; a converter that cannot
        // read "a" is missing.
        guard String(data: Data("a".utf8), encoding: encoding) == "a"
            || String(data: Data([0, 0x61]), encoding: encoding) == "a"
            || String(data: Data([0x61, 0]), encoding: encoding) == "a"
        else { return nil }
        return encoding
    }

    /// The bytes of a quoted-printable value (`=XX` escapes; soft breaks were joined when unfolding).
    static func quotedPrintableBytes(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "="), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else if byte == UInt8(ascii: "="), index == bytes.count - 1 {
                index += 1
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Decodes `bytes` in the named character set (UTF-8 when none). When that fails the value is
    /// read as UTF-8 if valid, else as Windows-1252, and `warning` says which was used.
    static func string(_ bytes: [UInt8], charset: String?) -> (text: String, warning: String?) {
        let data = Data(bytes)
        func fallback() -> (text: String, used: String) {
            if let text = String(data: data, encoding: .utf8) { return (text, "UTF-8") }
            if let text = String(data: data, encoding: .windowsCP1252) { return (text, "Windows-1252") }
            return (String(data: data, encoding: .isoLatin1) ?? "", "ISO-8859-1")
        }
        if let charset {
            if let encoding = encoding(named: charset) {
                if let text = String(data: data, encoding: encoding) { return (text, nil) }
                let read = fallback()
                return (read.text, "the value is not valid \(charset); read as \(read.used)")
            }
            let read = fallback()
            return (read.text, "character set \(charset) cannot be converted here; read as \(read.used)")
        }
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        let read = fallback()
        return (read.text, "the value is not valid UTF-8 and names no CHARSET; read as \(read.used)")
    }

    /// Base64 data, ignoring whitespace, accepting the URL-safe alphabet and missing padding.
    static func base64(_ text: String) -> Data? {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !CharacterSet.whitespacesAndNewlines.contains(scalar) {
            switch scalar {
            case "-": cleaned.append("+")
            case "_": cleaned.append("/")
            default: cleaned.append(scalar)
            }
        }
        if cleaned.count % 4 == 1 { return nil }
        while cleaned.count % 4 != 0 { cleaned.append("=") }
        return Data(base64Encoded: String(cleaned))
    }

    /// The text of a whole file: BOM-marked UTF-8 or UTF-16, UTF-8, else Windows-1252 / ISO-8859-1.
    static func string(fromFileData data: Data) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(decoding: bytes.dropFirst(3), as: UTF8.self)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            if let text = String(data: data, encoding: .utf16) { return text }
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        if let text = String(data: data, encoding: .windowsCP1252) { return text }
        return String(data: data, encoding: .isoLatin1) ?? String(decoding: bytes, as: UTF8.self)
    }
}
