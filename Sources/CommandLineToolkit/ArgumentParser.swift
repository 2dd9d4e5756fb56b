import Foundation

/// Parses `arguments` against the specs: unknown, missing, repeated and malformed arguments
/// (including values a typed `Option` cannot convert) are usage errors, detected before any
/// command touches data. `globalOptions` are the tool's options accepted before the command
/// (`--app-group`), offered in "did you mean" suggestions.
package func parseArguments(
    _ arguments: [String], options: [OptionSpec], positional: PositionalSpec, globalOptions: [String] = []
) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
    let byShort = Dictionary(uniqueKeysWithValues: options.compactMap { spec in spec.short.map { ($0, spec.name) } })
    while index < arguments.count {
        var argument = arguments[index]
        index += 1
        if !onlyPositionals, let name = byShort[argument] { argument = name }
        if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
            if argument.hasPrefix("-"), argument != "-", !onlyPositionals {
                throw UsageError(
                    "unknown option '\(argument)'"
                        + Suggestions.didYouMean(argument, among: options.map(\.name) + globalOptions + ["--help"]))
            }
            parsed.positionals.append(argument)
            continue
        }
        if argument == "--" {
            onlyPositionals = true
            continue
        }
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let spec = byName[name] else {
            throw UsageError(
                "unknown option '\(name)'"
                    + Suggestions.didYouMean(name, among: options.map(\.name) + globalOptions + ["--help"]))
        }
        if parsed.options[name] != nil, !spec.repeatable {
            throw UsageError("option '\(name)' was given more than once")
        }
        if let placeholder = spec.value {
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                // The next word is the value unless it is one of this command's options
                // (so values such as "--05-17", a birthday without a year, still work).
                let next = index < arguments.count ? arguments[index] : nil
                let nextName = next.map { String($0.split(separator: "=", maxSplits: 1).first ?? "") }
                guard let next, nextName.flatMap({ byName[$0] }) == nil, next != "--help" else {
                    throw UsageError("option '\(name)' needs a value (\(placeholder))")
                }
                value = next
                index += 1
            }
            try spec.check?(value, name)
            parsed.options[name, default: []].append(value)
        } else {
            if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
            parsed.options[name, default: []].append("")
        }
    }
    for option in options where option.required && parsed.options[option.name] == nil {
        throw UsageError("missing option '\(option.synopsis)'")
    }
    if parsed.positionals.count < positional.minimum {
        throw UsageError(
            positional.minimum == 1 && positional.maximum == 1
                ? "missing argument \(positional.name)"
                : "expected at least \(positional.minimum) \(positional.name) argument(s)")
    }
    if parsed.positionals.count > positional.maximum {
        let extra = parsed.positionals[positional.maximum]
        throw UsageError("unexpected argument '\(extra)'")
    }
    return parsed
}
