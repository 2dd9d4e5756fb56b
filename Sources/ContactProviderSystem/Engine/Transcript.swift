import AppGroupStore
import Foundation
import Synchronization

/// One line per enumerator or observer call, in the order they happened.
///
/// This is what `signal --trace`, step mode and the conformance kit's failure reports print.
public final class Transcript: Sendable {
    private let lines = Mutex<[String]>([])
    private let echo: (@Sendable (String) -> Void)?

    /// A transcript; `echo` also receives each line as it is recorded (foreground logging).
    public init(echo: (@Sendable (String) -> Void)? = nil) {
        self.echo = echo
    }

    /// Records a line.
    public func record(_ line: String) {
        lines.withLock { $0.append(line) }
        echo?(line)
    }

    /// Everything recorded so far.
    public var all: [String] {
        lines.withLock { $0 }
    }

    /// A short rendering of a list of identifiers.
    static func summarize(_ identifiers: [String]) -> String {
        let shown = identifiers.prefix(5).joined(separator: ", ")
        let rest = identifiers.count > 5 ? ", … (\(identifiers.count - 5) more)" : ""
        return
            "\(identifiers.count) item\(identifiers.count == 1 ? "" : "s")\(identifiers.isEmpty ? "" : ": ")\(shown)\(rest)"
    }
}
