import Foundation

/// A log handle for a subsystem and category, as Apple's `OSLog` (the object `os_log` writes to).
///
/// iOS code written before `Logger` keeps one per category (`OSLog(subsystem:category:)`) and passes it
/// to ``os_log(_:dso:log:type:_:)``; `Logger(_:)` wraps one.
public final class OSLog: NSObject, Sendable {
    /// The subsystem (empty for ``default``).
    public let subsystem: String
    /// The category (empty for ``default``).
    public let category: String
    private let enabled: Bool

    /// A log for `subsystem` and `category`.
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
        enabled = true
    }

    private init(disabled: Void) {
        subsystem = ""
        category = ""
        enabled = false
    }

    /// The default log, with no subsystem or category.
    public static let `default` = OSLog(subsystem: "", category: "")

    /// A log that writes nothing.
    public static let disabled = OSLog(disabled: ())

    /// Whether a message of `type` would be written (every type, unless this is ``disabled`` or
    /// `OSLOG_DISABLE=1` is set).
    public func isEnabled(type: OSLogType) -> Bool {
        enabled && LogOutput.isEnabled
    }

    /// Writes one rendered message at `type`'s level.
    func write(_ message: String, type: OSLogType) {
        guard isEnabled(type: type) else { return }
        LogOutput.write(LogOutput.line(subsystem: subsystem, category: category, level: type.name, message: message))
    }
}

extension Logger {
    /// A logger writing to `log`'s subsystem and category.
    public init(_ log: OSLog) {
        self.init(subsystem: log.subsystem, category: log.category)
    }
}

/// Writes a printf-style message to `log`, as Apple's `os_log` (`%@`, `%d`, `%s`, … with Apple's
/// privacy annotations such as `%{public}@`, which only matter on a device and are dropped here).
///
/// - Parameters:
///   - message: The format.
///   - dso: Apple's caller address; unused here.
///   - log: Where to write (``OSLog/default`` unless given).
///   - type: The level.
///   - args: The values for the format's specifiers.
// swift-format-ignore: AlwaysUseLowerCamelCase
// Apple's name.
public func os_log(
    _ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, type: OSLogType = .default,
    _ args: any CVarArg...
) {
    guard log.isEnabled(type: type) else { return }
    log.write(OSLogFormat.render(message.description, args), type: type)
}

/// Writes a message with interpolations to `log`, as Apple's newer `os_log(_:log:_:)`.
// swift-format-ignore: AlwaysUseLowerCamelCase
// Apple's name.
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog, _ message: OSLogMessage) {
    log.write(message.rendered, type: type)
}

/// printf-style formats as `os_log` takes them.
enum OSLogFormat {
    /// `format` with `{…}` annotations removed from its specifiers, filled with `args`.
    static func render(_ format: String, _ args: [any CVarArg]) -> String {
        var plain = ""
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            plain += rest[..<percent]
            plain += "%"
            rest = rest[rest.index(after: percent)...]
            // `%{public}@`, `%{private, mask.hash}s`: the annotation goes, the specifier stays.
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                rest = rest[rest.index(after: close)...]
            }
        }
        plain += rest
        return args.isEmpty ? plain.replacingOccurrences(of: "%%", with: "%") : String(format: plain, arguments: args)
    }
}
