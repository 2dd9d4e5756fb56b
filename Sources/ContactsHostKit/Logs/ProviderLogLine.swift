import Foundation

/// A message level in Apple's order (`log stream --level`): debug < info < default < error < fault.
///
/// The `OSLog` shim writes the name of the method that logged (`notice`, `warning`, `critical`, …);
/// each maps to the level Apple's unified logging files it under.
package enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug, info, `default`, error, fault

    /// Apple's name for the level, as `--level` takes it and `--json` prints it.
    package var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .default: "default"
        case .error: "error"
        case .fault: "fault"
        }
    }

    /// The level of a name the shim writes: a `Logger` method (`trace`, `notice`, `warning`, `critical`, …)
    /// or an `OSLogType` (`default`, `type(0x11)`); nil for anything else.
    ///
    /// - Parameter written: The level as it appears in the log line.
    package init?(written: String) {
        switch written {
        case "trace", "debug": self = .debug
        case "info": self = .info
        case "notice", "default": self = .default
        case "warning", "error": self = .error
        case "critical", "fault": self = .fault
        default:
            // `log(level:)` with a value outside the five named ones: Apple files those as default.
            guard written.hasPrefix("type(0x"), written.hasSuffix(")"),
                UInt8(written.dropFirst("type(0x".count).dropLast(), radix: 16) != nil
            else { return nil }
            self = .default
        }
    }

    /// The level a `--level` value names: one of Apple's names, or `notice` (Apple's name for default
    /// in `Logger`); nil for anything else.
    ///
    /// - Parameter option: The option's value.
    package init?(option: String) {
        if option == "notice" {
            self = .default
            return
        }
        guard let level = Self.allCases.first(where: { $0.name == option }) else { return nil }
        self = level
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One line of a provider log, split into the fields `LogOutput.line` writes:
/// `<ISO 8601 time> [<subsystem>:<category>] <level>: <message>`.
///
/// Anything else the provider's process printed (its own `print`, a crash's message) is a line
/// without time, subsystem, category or level: its whole text is the message. So is each further
/// line of a `Logger` message that itself holds line breaks, since the shim writes those verbatim.
package struct ProviderLogLine: Equatable, Sendable {
    /// The time as written (ISO 8601, UTC, with fractional seconds); nil for a line `Logger` did not write.
    package var time: String?
    /// The logger's subsystem.
    package var subsystem: String?
    /// The logger's category.
    package var category: String?
    /// The message's level.
    package var level: LogLevel?
    /// The message; the whole line for a line `Logger` did not write.
    package var message: String
    /// The line as it is in the file, which the text output prints unchanged.
    package var text: String

    /// Whether `Logger` wrote the line.
    package var isLoggerLine: Bool { level != nil }

    /// Splits `text` (one line, without its newline).
    ///
    /// - Parameter text: The line.
    package static func parse(_ text: String) -> ProviderLogLine {
        let plain = ProviderLogLine(message: text, text: text)
        // The time has no spaces ("2026-12-03T07:44:56.123Z"); what follows is "[subsystem:category] ".
        guard let space = text.firstIndex(of: " ") else { return plain }
        let time = text[..<space]
        guard time.count >= 20, time.first?.isNumber == true, time.contains("T"), time.last == "Z" else {
            return plain
        }
        let rest = text[text.index(after: space)...]
        guard rest.first == "[", let close = rest.range(of: "] ") else { return plain }
        let names = rest[rest.index(after: rest.startIndex)..<close.lowerBound]
        // Subsystems are reverse-DNS names without colons; a category may hold one.
        guard let colon = names.firstIndex(of: ":") else { return plain }
        let afterNames = rest[close.upperBound...]
        guard let separator = afterNames.range(of: ": "),
            let level = LogLevel(written: String(afterNames[..<separator.lowerBound]))
        else { return plain }
        return ProviderLogLine(
            time: String(time), subsystem: String(names[..<colon]),
            category: String(names[names.index(after: colon)...]), level: level,
            message: String(afterNames[separator.upperBound...]), text: text)
    }
}

/// Which lines `contacts-host log` prints: `--subsystem`, `--category` (exact matches, like
/// `log stream --predicate 'subsystem == "…"'`) and `--level` (that level and above).
///
/// A line `Logger` did not write has no subsystem or category, so either of those filters hides it.
/// The level filter does not: such lines are mostly what a crashing process printed (`Fatal error: …`),
/// which is what someone looking at errors only needs most.
package struct LogFilter: Sendable {
    /// Only lines of this subsystem.
    package var subsystem: String?
    /// Only lines of this category.
    package var category: String?
    /// Only `Logger` lines at this level or above (and lines `Logger` did not write).
    package var minimumLevel: LogLevel?

    /// A filter; nil lets every line through for that field.
    package init(subsystem: String? = nil, category: String? = nil, minimumLevel: LogLevel? = nil) {
        self.subsystem = subsystem
        self.category = category
        self.minimumLevel = minimumLevel
    }

    /// Whether the filter lets `line` through.
    ///
    /// - Parameter line: A parsed line.
    package func accepts(_ line: ProviderLogLine) -> Bool {
        if let subsystem, line.subsystem != subsystem { return false }
        if let category, line.category != category { return false }
        if let minimumLevel, let level = line.level, level < minimumLevel { return false }
        return true
    }
}

/// One line of `contacts-host log --json`: every key present, `null` where a line `Logger` did not
/// write has no value, so `jq 'select(.level == null)'` finds what a crash printed.
package struct ProviderLogLineJSON: Encodable {
    let line: ProviderLogLine

    /// The JSON of `line`.
    package init(_ line: ProviderLogLine) { self.line = line }

    private enum CodingKeys: String, CodingKey { case time, subsystem, category, level, message }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line.time, forKey: .time)
        try container.encode(line.subsystem, forKey: .subsystem)
        try container.encode(line.category, forKey: .category)
        try container.encode(line.level?.name, forKey: .level)
        try container.encode(line.message, forKey: .message)
    }
}
