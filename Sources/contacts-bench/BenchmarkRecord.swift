import Foundation
import Glibc

/// One benchmark run as data (`--record FILE`): what was run, where, when, with which build, and the
/// figures. The docs show these files; nobody edits them by hand.
struct BenchmarkRecord: Codable {
    /// The machine a run measured.
    struct Machine: Codable {
        /// `uname -srm`.
        var system: String
        /// Online processors.
        var processors: Int
        /// Physical memory in GiB.
        var memoryGiB: Double
        /// The host name.
        var host: String
    }

    /// The command line, as typed (`contacts-bench --contacts 1000 …`).
    var command: String
    var machine: Machine
    /// ISO 8601, UTC.
    var date: String
    /// `debug` or `release`: debug figures are what `swift build`/`swift run` give.
    var configuration: String
    var figures: [Figure]
    /// `--goals`: each of issue 27's goals judged on these figures.
    var goals: [GoalVerdict]?

    static var configuration: String {
        #if DEBUG
            return "debug"
        #else
            return "release"
        #endif
    }

    static func current(figures: [Figure], goals: [GoalVerdict]? = nil) -> BenchmarkRecord {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let memory = Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
        return BenchmarkRecord(
            command: (["contacts-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
            machine: Machine(
                system: "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))",
                processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                memoryGiB: (memory / 1_073_741_824 * 10).rounded() / 10, host: text(names.nodename)),
            date: Date().formatted(Date.ISO8601FormatStyle()), configuration: configuration, figures: figures,
            goals: goals)
    }

    /// Writes the record to `path` (pretty, sorted keys, so runs diff well).
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
