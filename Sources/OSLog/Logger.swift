/// Writes log messages for a subsystem and category.
///
/// Mirrors Apple's `Logger` so iOS code that logs compiles and runs unchanged:
///
/// ```swift
/// let logger = Logger(subsystem: "com.example.provider", category: "sync")
/// logger.info("Fetched \(count) contacts")
/// ```
///
/// Each message becomes one line on standard error:
/// `2025-01-01T12:00:00.000Z [com.example.provider:sync] info: Fetched 3 contacts`.
/// Set the environment variable `OSLOG_DISABLE=1` to silence all loggers.
///
/// The level written is the method's name (`notice`, `warning`, …) for the
/// convenience methods, and the ``OSLogType``'s name for ``log(level:_:)``.
public struct Logger: Sendable {
    /// The subsystem, usually a reverse-DNS bundle identifier; empty for ``init()``.
    package let subsystem: String
    /// The category within the subsystem; empty for ``init()``.
    package let category: String

    /// Creates a logger for a subsystem and category.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem, usually a reverse-DNS bundle identifier.
    ///   - category: The category within the subsystem, such as "sync".
    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// Creates a logger with no subsystem or category, like Apple's default log.
    public init() {
        self.init(subsystem: "", category: "")
    }

    /// Writes a message at the default level.
    ///
    /// - Parameter message: The message.
    public func log(_ message: OSLogMessage) {
        write(message, level: OSLogType.default.name)
    }

    /// Writes a message at the given level.
    ///
    /// - Parameters:
    ///   - level: The level.
    ///   - message: The message.
    public func log(level: OSLogType, _ message: OSLogMessage) {
        write(message, level: level.name)
    }

    /// Writes a trace message (debug level on Apple platforms).
    ///
    /// - Parameter message: The message.
    public func trace(_ message: OSLogMessage) {
        write(message, level: "trace")
    }

    /// Writes a debugging message (debug level).
    ///
    /// - Parameter message: The message.
    public func debug(_ message: OSLogMessage) {
        write(message, level: "debug")
    }

    /// Writes an informative message (info level).
    ///
    /// - Parameter message: The message.
    public func info(_ message: OSLogMessage) {
        write(message, level: "info")
    }

    /// Writes a notice (default level on Apple platforms).
    ///
    /// - Parameter message: The message.
    public func notice(_ message: OSLogMessage) {
        write(message, level: "notice")
    }

    /// Writes a warning (error level on Apple platforms).
    ///
    /// - Parameter message: The message.
    public func warning(_ message: OSLogMessage) {
        write(message, level: "warning")
    }

    /// Writes an error (error level).
    ///
    /// - Parameter message: The message.
    public func error(_ message: OSLogMessage) {
        write(message, level: "error")
    }

    /// Writes a critical message (fault level on Apple platforms).
    ///
    /// - Parameter message: The message.
    public func critical(_ message: OSLogMessage) {
        write(message, level: "critical")
    }

    /// Writes a fault (fault level).
    ///
    /// - Parameter message: The message.
    public func fault(_ message: OSLogMessage) {
        write(message, level: "fault")
    }

    /// Renders and writes a message unless output is disabled.
    private func write(_ message: OSLogMessage, level: String) {
        guard LogOutput.isEnabled else { return }
        let line = LogOutput.line(
            subsystem: subsystem, category: category, level: level, message: message.rendered)
        LogOutput.write(line)
    }
}
