import CommandLineToolkit

/// The one `--json` style of `contacts-host`, declared once.
///
/// A report (`add --json`, `status --json`, …) is exactly one line of JSON with sorted keys, so a
/// script reads it with `read` or `jq -c` and a log keeps one record per line; a person pipes it
/// through `jq` to indent it. A stream (`watch --json`, `log --json`) is one such object per line
/// (JSON Lines). Only `export`'s document, which is a file format rather than a report, is indented.
///
/// Each command's `--json` flag carries its shape in its help text; `docs/cli.md`'s JSON table is
/// that text (`DocumentationTests` checks it), and `Tests/Fixtures/JSON` holds one golden output per
/// shape (`JSONGoldenTests`).
package enum JSONOutput {
    /// What every report's help text starts with.
    static let reportPrefix = "Print one line of JSON: "

    /// What every stream's help text starts with.
    static let streamPrefix = "Print one line of JSON per "

    /// A `--json` flag whose report has `shape` (keys as they appear, sorted; `?` marks a key that is
    /// left out when it does not apply).
    package static func report(_ shape: String) -> Flag {
        Flag("--json", help: reportPrefix + shape + ".")
    }

    /// A `--json` flag of a stream: one object of `shape` per `unit` (`"commit"`, `"log line"`).
    static func stream(per unit: String, _ shape: String) -> Flag {
        Flag("--json", help: streamPrefix + unit + ": " + shape + ".")
    }

    /// What `--version --json` prints (declared here so `docs/cli.md`'s JSON table lists it too).
    static let versionShape = "{\"version\": V}"

    /// The usage error for `--json` given to `command`, which has no JSON output: it names the
    /// commands that do, instead of a bare "unknown option". Nil when `command` takes `--json` or
    /// `arguments` (the command's own, after its name) do not contain it.
    static func refusal(for command: Command, arguments: [String], commands: [Command]) -> UsageError? {
        guard !command.options.contains(where: { $0.name == "--json" }) else { return nil }
        let options = arguments.prefix { $0 != "--" }
        guard options.contains(where: { $0 == "--json" || $0.hasPrefix("--json=") }) else { return nil }
        return UsageError(
            "--json is not available here: this command prints no report to parse; the commands with --json are "
                + Self.commands(withJSON: commands).joined(separator: ", ") + ", and --version")
    }

    /// The names of the commands that take `--json`, in help order (a forwarded one by
    /// ``ForwardedCommands/namesTakingJSON``: its options are declared in the executable that runs it).
    static func commands(withJSON commands: [Command]) -> [String] {
        commands.filter { command in
            command.forwardedTo == nil
                ? command.options.contains { $0.name == "--json" }
                : ForwardedCommands.namesTakingJSON.contains(command.name)
        }.map { $0.name.joined(separator: " ") }
    }

    /// The shape of one contact, as `get`, `list` and `search` print it.
    static let contactShape =
        "{…, \"familyName\", \"givenName\", \"identifier\", …, \"phoneNumbers\": [{\"label\", \"value\"}], …}"
        + " with Contacts key names, empty fields left out"
}

extension HelpFormatter {
    /// The table of `docs/cli.md`'s "JSON output" section: one row per command that takes `--json`,
    /// its shape exactly as the flag's help states it, so the reference cannot drift from `--help`.
    package static func jsonReference(_ commands: [Command]) -> String {
        // The first cell is plain text: rows that start with code voice are the command table's usage lines.
        var rows = ["| command | what `--json` prints |", "|---|---|"]
        for command in commands {
            guard let flag = command.options.first(where: { $0.name == "--json" }) else { continue }
            let help = flag.help.replacingOccurrences(of: "|", with: "\\|")
            rows.append("| \(command.name.joined(separator: " ")) --json | \(help) |")
        }
        rows.append("| --version --json | \(JSONOutput.reportPrefix)\(JSONOutput.versionShape). |")
        return rows.joined(separator: "\n") + "\n"
    }
}
