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

    /// A short rendering of a list of identifiers: the count, then the first five.
    static func summarize(_ identifiers: [String]) -> String {
        render(identifiers.prefix(5), count: identifiers.count)
    }

    /// A short rendering of a list of items: the count, then the first five, each identifier
    /// followed by the name the system would show for it (`ada "Ada Lovelace"`), so a trace can be
    /// read without looking every identifier up. A contact without a name shows its identifier alone.
    static func summarize(_ records: [ContactRecord]) -> String {
        render(records.prefix(5).map(entry), count: records.count)
    }

    /// `identifier "Display Name"`, the name quoted and escaped as a Swift literal (a name may hold
    /// quotes or a line break, which would otherwise break the transcript's one line per call).
    private static func entry(_ record: ContactRecord) -> String {
        let name = record.displayName
        return name.isEmpty ? record.identifier : "\(record.identifier) \(String(reflecting: name))"
    }

    /// "N items: " and the `shown` entries, with how many more there are.
    private static func render(_ shown: some Collection<String>, count: Int) -> String {
        let rest = count > shown.count ? ", … (\(count - shown.count) more)" : ""
        return "\(count) item\(count == 1 ? "" : "s")\(count == 0 ? "" : ": ")\(shown.joined(separator: ", "))\(rest)"
    }
}
