import AppGroupStore
import Foundation

/// vCard dates (BDAY).
enum VCardDates {
    enum Parsed: Equatable {
        /// A stored birthday: `YYYY-MM-DD` or `--MM-DD`.
        case date(String)
        /// A valid vCard date without month and day (`1990`, `1990-05`, `---17`).
        case partial
        case invalid
    }

    /// Reads `1990-05-17`, `19900517`, `--0517`, `--05-17`, each optionally followed by a time.
    static func parse(_ text: String, omitYear: Bool) -> Parsed {
        var date = Substring(text)
        if let t = date.firstIndex(where: { $0 == "T" || $0 == "t" }) { date = date[..<t] }
        if let space = date.firstIndex(of: " ") { date = date[..<space] }
        let digits = date.filter(\.isASCIIDigitLike)
        let year: Int?
        let monthDay: Substring
        if date.hasPrefix("---") {
            return date.dropFirst(3).count == 2 && Int(date.dropFirst(3)) != nil ? .partial : .invalid
        } else if date.hasPrefix("--") {
            let rest = date.dropFirst(2)
            guard rest.count == 4 || (rest.count == 5 && rest[rest.index(rest.startIndex, offsetBy: 2)] == "-")
            else { return .invalid }
            year = nil
            monthDay = Substring(rest.filter { $0 != "-" })
        } else if date.count == 10, digits.count == 8,
            date[date.index(date.startIndex, offsetBy: 4)] == "-", date[date.index(date.startIndex, offsetBy: 7)] == "-"
        {
            year = Int(date.prefix(4))
            monthDay = Substring(date.dropFirst(5).filter { $0 != "-" })
        } else if date.count == 8, digits.count == 8 {
            year = Int(date.prefix(4))
            monthDay = date.dropFirst(4)
        } else if (date.count == 4 && digits.count == 4)
            || (date.count == 7 && digits.count == 6 && date[date.index(date.startIndex, offsetBy: 4)] == "-")
        {
            return .partial
        } else {
            return .invalid
        }
        guard monthDay.count == 4, monthDay.allSatisfy(\.isASCIIDigitLike), let month = Int(monthDay.prefix(2)),
            let day = Int(monthDay.suffix(2))
        else { return .invalid }
        if date.hasPrefix("--") == false, year == nil { return .invalid }
        let formatted = BirthdayFormat.format(year: omitYear ? nil : year, month: month, day: day)
        guard BirthdayFormat.parse(formatted) != nil else { return .invalid }
        return .date(formatted)
    }
}

extension Character {
    fileprivate var isASCIIDigitLike: Bool { isASCII && isNumber }
}
