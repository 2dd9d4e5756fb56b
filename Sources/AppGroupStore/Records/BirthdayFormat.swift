import Foundation

/// Birthdays as stored: `YYYY-MM-DD`, or `--MM-DD` without a year.
public enum BirthdayFormat {
    /// Parses a stored birthday into (year?, month, day), or nil when it is not valid.
    public static func parse(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        if let parsed = parseDigits(text) { return parsed }
        return parseSplitting(text)
    }

    /// The general path of ``parse(_:)``: what it decides for every text (`parseDigits` only answers
    /// the common shapes sooner, and `BirthdayParsingTests` checks the two agree).
    static func parseSplitting(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let year: Int?
        let month: Int
        let day: Int
        if parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            parts[1].count == 2, parts[2].count == 2
        {
            (year, month, day) = (y, m, d)
        } else if parts.count == 4, parts[0].isEmpty, parts[1].isEmpty, let m = Int(parts[2]), let d = Int(parts[3]),
            parts[2].count == 2, parts[3].count == 2
        {
            (year, month, day) = (nil, m, d)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year, month, day)
    }

    /// The common shapes, `yyyy-mm-dd` and `--mm-dd` in plain digits, read from the bytes (a debug
    /// build's `split` and `Int(_:)` are generic calls, once per contact with a birthday); nil sends
    /// anything else, valid or not, through `parse`'s general path, which decides it as before.
    static func parseDigits(_ text: String) -> (year: Int?, month: Int, day: Int)? {
        var text = text
        return text.withUTF8 { bytes -> (year: Int?, month: Int, day: Int)? in
            func digits(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                var index = start
                while index < start + count {
                    let byte = bytes[index]
                    guard byte >= 0x30, byte <= 0x39 else { return nil }
                    value = value * 10 + Int(byte - 0x30)
                    index += 1
                }
                return value
            }
            let year: Int?
            let monthStart: Int
            if bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D, let parsed = digits(0, 4) {
                year = parsed
                monthStart = 5
            } else if bytes.count == 7, bytes[0] == 0x2D, bytes[1] == 0x2D, bytes[4] == 0x2D {
                year = nil
                monthStart = 2
            } else {
                return nil
            }
            guard let month = digits(monthStart, 2), let day = digits(monthStart + 3, 2), (1...12).contains(month),
                (1...31).contains(day)
            else { return nil }
            return (year, month, day)
        }
    }

    /// Whether `text` is a birthday exactly as ``format(year:month:day:)`` writes it: it parses,
    /// and formatting what it parses to gives `text` back (`Int` also reads `+990`, which formats
    /// as `0990`).
    public static func isCanonical(_ text: String) -> Bool {
        // Checked on the stored bytes (no copy: the bridge asks for every contact with a birthday).
        var text = text
        let digitsWhereExpected = text.withUTF8 { bytes -> Bool in
            let digitPositions: [Int]
            switch bytes.count {
            case 10 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"):
                digitPositions = [0, 1, 2, 3, 5, 6, 8, 9]
            case 7
            where bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-") && bytes[4] == UInt8(ascii: "-"):
                digitPositions = [2, 3, 5, 6]
            default: return false
            }
            return digitPositions.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
        }
        return digitsWhereExpected && parse(text) != nil
    }

    /// Formats (year?, month, day) the way `parse` reads it.
    public static func format(year: Int?, month: Int, day: Int) -> String {
        let md = String(format: "%02d-%02d", month, day)
        if let year { return String(format: "%04d-", year) + md }
        return "--" + md
    }
}
