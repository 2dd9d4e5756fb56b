import Foundation

/// The lines of a vCard file's bytes, each decoded on its own.
///
/// One invalid UTF-8 sequence must not turn a whole file into mojibake: a file that is valid UTF-8
/// is read as UTF-8; otherwise each line (with its folded continuations, so a character a server
/// split across a fold is whole again) is read as UTF-8 when it is valid, else in the line's
/// `CHARSET` (Shift_JIS from Japanese phones, windows-1250, GBK, Big5, KOI8-R, EUC-KR, … where
/// Foundation can convert it), else as Windows-1252, and every line not read as written is reported.
enum VCardFileText {
    /// The numbered physical lines of `data` and the problems met decoding them.
    static func lines(_ data: Data) -> (lines: [VCardLine], problems: [VCardProblem]) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return (VCardSyntax.numberedLines(VCardCharset.string(fromFileData: data)), [])
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) {
            return (VCardSyntax.numberedLines(text), [])
        }

        let physical = physicalLines(bytes)
        let declared = VCardCharset.declared(physical.compactMap(declaredCharset))
        var lines: [VCardLine] = []
        var problems: [VCardProblem] = []
        lines.reserveCapacity(physical.count)
        var index = 0
        while index < physical.count {
            var end = index + 1
            while end < physical.count, let first = physical[end].first, first == 0x20 || first == 0x09 { end += 1 }
            let group = physical[index..<end]
            let number = index + 1
            if group.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
                for (offset, line) in group.enumerated() {
                    lines.append(VCardLine(number: number + offset, text: String(decoding: line, as: UTF8.self)))
                }
            } else {
                // Joined here (not when unfolding text) so a sequence split across a fold is whole.
                var joined = group.first!
                for continuation in group.dropFirst() { joined += continuation.dropFirst() }
                if let text = String(validating: joined, as: UTF8.self) {
                    lines.append(VCardLine(number: number, text: text))
                    index = end
                    continue
                }
                let decoded = decodeLine(joined, number: number, declared: declared)
                lines.append(VCardLine(number: number, text: decoded.text))
                if let problem = decoded.problem { problems.append(problem) }
            }
            index = end
        }
        return (lines, problems)
    }

    /// Splits bytes the way `VCardSyntax.physicalLines` splits text (CR before LF belongs to the break).
    private static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var pendingCRs = 0
        for byte in bytes {
            if byte == 0x0D {
                pendingCRs += 1
                continue
            }
            if byte == 0x0A {
                lines.append(current)
                current = []
                pendingCRs = 0
                continue
            }
            if pendingCRs > 0 {
                lines.append(current)
                current = []
                lines.append(contentsOf: repeatElement([], count: pendingCRs - 1))
                pendingCRs = 0
            }
            current.append(byte)
        }
        if !current.isEmpty || pendingCRs > 0 { lines.append(current) }
        if pendingCRs > 1 { lines.append(contentsOf: repeatElement([], count: pendingCRs - 1)) }
        return lines
    }

    /// The ASCII header of a line (before its first colon), non-ASCII bytes as `?`.
    private static func header(_ bytes: [UInt8]) -> String {
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
        return String(decoding: bytes[..<colon].map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The CHARSET a line declares, if any.
    private static func declaredCharset(_ bytes: [UInt8]) -> String? {
        let header = header(bytes)
        guard header.range(of: "charset", options: .caseInsensitive) != nil else { return nil }
        return VCardSyntax.parse(VCardLine(number: 0, text: header + ":"))?.values(of: "CHARSET").first
    }

    /// A line that is not valid UTF-8: the value in the line's CHARSET when Foundation can convert
    /// it; for a line that names no CHARSET, in the first of `declared` (the CHARSETs the file's
    /// other lines declare, most used first) that reads it, since a 2.1 file from a Greek or Russian
    /// phone declares its charset on some lines only; else Windows-1252 (ISO-8859-1 for its five
    /// unassigned bytes). A problem says which was used.
    static func decodeLine(_ bytes: [UInt8], number: Int, declared: [String] = []) -> (
        text: String, problem: VCardProblem?
    ) {
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
        let header = header(bytes)
        let value = Data(bytes[min(colon + 1, bytes.count)...])
        let separator = colon < bytes.count ? ":" : ""
        let property = VCardSyntax.parse(VCardLine(number: number, text: header + ":"))
        let charset = property?.values(of: "CHARSET").first?.trimmingCharacters(in: .whitespaces)
        let fallback = String(data: value, encoding: .windowsCP1252) ?? String(data: value, encoding: .isoLatin1) ?? ""
        let name = property.map { $0.name.isEmpty ? "the line" : $0.name } ?? "the line"
        func problem(_ message: String) -> VCardProblem {
            VCardProblem(line: number, message: message, skipped: false)
        }
        guard let charset, !charset.isEmpty else {
            if let read = VCardCharset.firstReading(value, in: declared) {
                return (
                    header + separator + read.text,
                    problem(
                        "\(name) is not valid UTF-8 and names no CHARSET; it was read as \(read.charset), "
                            + "the CHARSET the file's other lines declare")
                )
            }
            return (
                header + separator + fallback,
                problem("\(name) is not valid UTF-8 and names no CHARSET; it was read as Windows-1252")
            )
        }
        guard let encoding = VCardCharset.encoding(named: charset) else {
            return (
                header + separator + fallback,
                problem(
                    "\(name): character set \(charset) cannot be converted here; the value was read as Windows-1252")
            )
        }
        guard let text = String(data: value, encoding: encoding) else {
            return (
                header + separator + fallback,
                problem("\(name): the value is not valid \(charset); it was read as Windows-1252")
            )
        }
        return (header + separator + text, nil)
    }
}
