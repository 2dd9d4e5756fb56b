import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// `contacts-host log`: the provider's `Logger` output, the way `log stream --predicate 'subsystem == "…"'`
/// shows an extension's on a Mac.
///
/// A provider the system launches writes its standard error, where the `OSLog` shim puts each
/// `Logger` line, to the domain's `provider.log`; this reads that file (and its rotated generation).
enum LogCommand {
    static let subsystem = Option<String>(
        "--subsystem", value: "S", help: "Only lines of Logger(subsystem: S, …) (an exact match).")
    static let category = Option<String>(
        "--category", value: "C", help: "Only lines of Logger(…, category: C) (an exact match).")
    static let level = Option<LogLevel>(
        "--level", value: "L",
        help:
            "Only this level and above: \(LogLevel.allCases.map { $0.name }.joined(separator: " < ")) (notice = default).",
        convert: { text, name in
            guard let level = LogLevel(option: text) else {
                throw UsageError(
                    "option '\(name)' expects one of \(LogLevel.allCases.map { $0.name }.joined(separator: ", ")) or notice, got '\(text)'"
                )
            }
            return level
        })
    static let follow = Flag(
        "--follow", short: "-f", help: "Keep printing lines as they are appended, across rotations, until Ctrl-C.")
    static let json = JSONOutput.stream(
        per: "log line",
        "{\"category\", \"level\", \"message\", \"subsystem\", \"time\"} (null where a line Logger did not write has no value)"
    )

    static let command = Command(
        ["log"], summary: "Print the provider's Logger output (like 'log stream'); -f keeps following it.",
        discussion: """
            Reads run/<domain>/provider.log, where a provider the system launched writes its standard output and
            error, after provider.log.1, its older generation (rotated at 2 MiB). Logger lines are
            '<time> [<subsystem>:<category>] <level>: <message>'. --level uses Apple's order (debug < info <
            default < error < fault): a written 'trace' counts as debug, 'notice' as default, 'warning' as error,
            'critical' as fault. Lines Logger did not write (print, a crash's message, a message's own further
            lines) have no subsystem, category or level: --subsystem and --category hide them, --level does not.
            A provider started by hand (--foreground) writes to its terminal instead, and OSLOG_DISABLE=1 in
            the environment of the host that launched it silences Logger. --follow ends on Ctrl-C or SIGTERM,
            with exit 0.
            """,
        options: [subsystem, category, level, follow, json],
        examples: [
            "contacts-host log",
            "contacts-host log --follow --subsystem com.example.MyApp.provider",
            "contacts-host log --level error --json",
        ],
        environment: ["OSLOG_DISABLE"],
        exitCodes: [
            ExitCodeHelp(0, "printed the log (with --follow: interrupted by Ctrl-C or SIGTERM)"),
            ExitCodeHelp(1, "the log could not be read or watched"), ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            let filter = LogFilter(
                subsystem: try arguments.value(subsystem), category: try arguments.value(category),
                minimumLevel: try arguments.value(level))
            let paths = try DomainPaths(appGroup: context.appGroup, domain: DomainManager.defaultDomainIdentifier)
            let asJSON = arguments.has(json)
            let print = { (text: String) in
                let line = ProviderLogLine.parse(text)
                guard filter.accepts(line) else { return }
                // A line that cannot be encoded cannot happen (strings only); print it as text rather than drop it.
                context.output.out(
                    asJSON ? (try? ContactJSON.report(ProviderLogLineJSON(line))) ?? text : text)
            }
            guard arguments.has(follow) else {
                let lines = try ProviderLogFile.lines(paths.providerLog)
                if lines.isEmpty {
                    context.output.err(
                        "note: \(paths.providerLog) is empty or absent: no provider has been launched by the system here yet"
                    )
                }
                lines.forEach(print)
                return ExitCode.success
            }
            // The run directory is what inotify watches; it exists before any provider ran.
            try paths.ensureDirectories()
            HostInterrupt.install()
            context.output.err("following \(paths.providerLog) (Ctrl-C to stop)")
            try LogFollower(path: paths.providerLog).run(emit: print, shouldStop: { HostInterrupt.isRaised })
            return ExitCode.success
        })
}
