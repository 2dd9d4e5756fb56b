/// The level of a log message.
///
/// Mirrors Apple's `OSLogType`; the raw values match Apple's.
public struct OSLogType: RawRepresentable, Hashable, Sendable {
    /// The numeric level, as in Apple's `os_log_type_t`.
    public let rawValue: UInt8

    /// Creates a level from its numeric value.
    ///
    /// - Parameter rawValue: The numeric level.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The default level, for messages that are neither informative extras nor problems.
    public static let `default` = OSLogType(rawValue: 0x00)
    /// Informative messages that help with troubleshooting.
    public static let info = OSLogType(rawValue: 0x01)
    /// Debugging messages, useful only during development.
    public static let debug = OSLogType(rawValue: 0x02)
    /// Errors that happened while running.
    public static let error = OSLogType(rawValue: 0x10)
    /// Faults: bugs or unrecoverable problems.
    public static let fault = OSLogType(rawValue: 0x11)

    /// The level's name as written in output lines: "default", "info", "debug",
    /// "error", "fault", or "type(0x..)" for other values.
    var name: String {
        switch self {
        case .default: "default"
        case .info: "info"
        case .debug: "debug"
        case .error: "error"
        case .fault: "fault"
        default: "type(0x\(String(rawValue, radix: 16)))"
        }
    }
}
