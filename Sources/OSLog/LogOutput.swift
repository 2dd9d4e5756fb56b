import CommandLineToolkit
import Foundation
import Synchronization

/// Where ``Logger`` writes: one line per message on standard error.
///
/// Not part of Apple's API. Output is on unless the environment variable
/// `OSLOG_DISABLE` is `1`.
package enum LogOutput {
    /// The environment variable that silences all loggers when set to `1`.
    package static let disableVariable = "OSLOG_DISABLE"

    /// Whether loggers write; read from the environment at every message.
    package static var isEnabled: Bool {
        isEnabled(disableValue: ProcessInfo.processInfo.environment[disableVariable])
    }

    /// Whether loggers write, given the value of `OSLOG_DISABLE` (`nil` when unset).
    ///
    /// - Parameter disableValue: The variable's value.
    package static func isEnabled(disableValue: String?) -> Bool {
        disableValue != "1"
    }

    /// The line written for a message, without the trailing newline:
    /// `<ISO 8601 time> [<subsystem>:<category>] <level>: <message>`.
    ///
    /// - Parameters:
    ///   - date: The time of the message.
    ///   - subsystem: The logger's subsystem.
    ///   - category: The logger's category.
    ///   - level: The level's name.
    ///   - message: The rendered message.
    package static func line(
        date: Date = Date(), subsystem: String, category: String, level: String, message: String
    ) -> String {
        let time = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return "\(time) [\(subsystem):\(category)] \(level): \(message)"
    }

    /// Writes a line and a newline to standard error in a single write (or to the capture of
    /// ``capturing(_:)`` while one runs).
    ///
    /// A failed write is ignored: logging must never stop the process (`FileHandle.write` traps
    /// on a full disk or `2>/dev/full`, which killed providers with SIGILL).
    ///
    /// - Parameter line: The line.
    package static func write(_ line: String) {
        let captured = capture.withLock { lines -> Bool in
            guard lines != nil else { return false }
            lines!.append(line)
            return true
        }
        guard !captured else { return }
        StandardError.write(line + "\n")
    }

    /// Lines captured instead of written, while ``capturing(_:)`` runs.
    private static let capture = Mutex<[String]?>(nil)

    /// Runs `body` with every logger line of this process captured instead of written to standard
    /// error (tests that log on purpose, so `swift test` output stays readable); returns the lines.
    /// Lines other code logs meanwhile are captured too.
    package static func capturing(_ body: () -> Void) -> [String] {
        capture.withLock { $0 = [] }
        body()
        return capture.withLock { lines in
            defer { lines = nil }
            return lines ?? []
        }
    }
}
