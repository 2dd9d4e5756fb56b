import AppGroupStore
import CommandLineToolkit

extension AppGroup {
    /// `--app-group DIR`, declared once for every executable (the host and the providers).
    package static let option = Option<AppGroup>(
        "--app-group", value: "DIR",
        help:
            "The App Group directory (default: $\(environmentVariable), else ~/.local/share/contact-provider-simulator/AppGroup).",
        convert: { text, name in
            guard !text.isEmpty else { throw UsageError("option '\(name)' needs a value (DIR)") }
            return AppGroup(path: text)
        })

    /// Takes `--app-group DIR` (or `--app-group=DIR`) out of `arguments`, wherever it stands, so the
    /// rest parses as a command line of its own; nil when it is absent. This is the only place the
    /// option is read.
    package static func takeOption(from arguments: inout [String]) throws -> AppGroup? {
        let name = option.name
        func isOption(_ argument: String) -> Bool { argument == name || argument.hasPrefix(name + "=") }
        // Only arguments before a "--" are options.
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard let index = arguments[..<end].firstIndex(where: isOption) else { return nil }
        let argument = arguments.remove(at: index)
        let text: String
        if argument.hasPrefix(name + "=") {
            text = String(argument.dropFirst(name.count + 1))
        } else {
            // The next word is the value unless it is another option (write `--app-group=--odd` for that).
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError("option '\(name)' needs a value (DIR)")
            }
            text = arguments.remove(at: index)
        }
        let rest = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if arguments[..<rest].contains(where: isOption) {
            throw UsageError("option '\(name)' was given more than once")
        }
        return try option.value(from: text)
    }
}
