import CoreFoundation
import Foundation

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
        guard
            String(data: Data("a".utf8), encoding: encoding) == "a"
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

    /// The CHARSETs that `charsets` (one per line that declares one) name and Foundation converts
    /// here, UTF-8 and ASCII left out, most used first (ties in file order): the file's own guess
    /// for its lines that declare none.
    static func declared(_ charsets: [String]) -> [String] {
        var counts: [String: (count: Int, first: Int)] = [:]
        for (index, name) in charsets.enumerated() {
            let upper = name.trimmingCharacters(in: .whitespaces).uppercased()
            guard !["UTF-8", "UTF8", "US-ASCII", "ASCII"].contains(upper), encoding(named: upper) != nil else {
                continue
            }
            let seen = counts[upper]
            counts[upper] = ((seen?.count ?? 0) + 1, seen?.first ?? index)
        }
        // More uses first; among equals, the one declared first.
        return counts.sorted { ($1.value.count, $0.value.first) < ($0.value.count, $1.value.first) }.map(\.key)
    }

    /// `data` read in the first of `charsets` that reads it, and that charset's name.
    static func firstReading(_ data: Data, in charsets: [String]) -> (text: String, charset: String)? {
        for charset in charsets {
            if let encoding = encoding(named: charset), let text = String(data: data, encoding: encoding) {
                return (text, charset)
            }
        }
        return nil
    }

    /// Decodes `bytes` in the named character set (UTF-8 when none). When that fails the value is
    /// read as UTF-8 if valid, else as Windows-1252, and `warning` says which was used. A value that
    /// names no CHARSET and is not UTF-8 is read in the first of `declared` (the CHARSETs the file's
    /// other lines declare) that reads it, with a warning saying so, before Windows-1252.
    static func string(_ bytes: [UInt8], charset: String?, declared: [String] = []) -> (
        text: String, warning: String?
    ) {
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
        if let read = firstReading(data, in: declared) {
            return (
                read.text,
                "the value is not valid UTF-8 and names no CHARSET; read as \(read.charset), "
                    + "the CHARSET the file's other lines declare"
            )
        }
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
