import Foundation

/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// `--name`.
    public let name: String
    /// The value's placeholder (`N`, `PATH`); nil for a flag.
    public let value: String?
    /// Whether it may be given more than once.
    public let repeatable: Bool
    /// One line of help.
    public let help: String
    /// Whether the command cannot run without it (shown without brackets in the usage line).
    public let required: Bool

    public init(_ name: String, value: String? = nil, repeatable: Bool = false, required: Bool = false, help: String) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.required = required
        self.help = help
    }

    /// `--name VALUE ...` as shown in usage lines and option lists.
    public var synopsis: String {
        name + (value.map { " \($0)" } ?? "") + (repeatable ? " ..." : "")
    }
}

/// The positional arguments a command accepts.
public struct PositionalSpec: Sendable {
    /// Placeholder in usage (`ID`, `FILE`).
    public let name: String
    /// Fewest allowed.
    public let minimum: Int
    /// Most allowed (`Int.max` for "any number").
    public let maximum: Int

    public init(_ name: String, minimum: Int, maximum: Int) {
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
    }

    /// No positional arguments.
    public static let none = PositionalSpec("", minimum: 0, maximum: 0)
}

/// The parsed arguments of one command.
public struct ParsedArguments: Sendable, Equatable {
    /// Option values by name (a flag maps to an empty array entry per occurrence).
    public var options: [String: [String]] = [:]
    /// Positional arguments in order.
    public var positionals: [String] = []

    /// The single value of an option, or nil.
    public func value(_ name: String) -> String? { options[name]?.last }
    /// All values of a repeatable option.
    public func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag or option is present.
    public func has(_ name: String) -> Bool { options[name] != nil }
}

/// A usage error (exit code 2): the message names the problem.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Parses `arguments` against the specs: unknown, missing, repeated and malformed arguments are
/// usage errors, detected before any command touches data.
public func parseArguments(
    _ arguments: [String], options: [OptionSpec], positional: PositionalSpec
) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
            if argument.hasPrefix("-"), argument != "-", !onlyPositionals {
                throw UsageError(
                    "unknown option '\(argument)'"
                        + Suggestions.didYouMean(argument, among: options.map(\.name) + ["--app-group", "--help"]))
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
                    + Suggestions.didYouMean(name, among: options.map(\.name) + ["--app-group", "--help"]))
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
                ? "missing argument \(positional.name)" : "expected at least \(positional.minimum) \(positional.name) argument(s)")
    }
    if parsed.positionals.count > positional.maximum {
        let extra = parsed.positionals[positional.maximum]
        throw UsageError("unexpected argument '\(extra)'")
    }
    return parsed
}

/// Typed readers of option values; malformed values are usage errors.
public enum ArgumentValue {
    /// A positive integer.
    public static func positiveInt(_ text: String, option: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("option '\(option)' expects a positive integer, got '\(text)'")
        }
        return value
    }

    /// A positive number of seconds.
    public static func seconds(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value > 0, value.isFinite else {
            throw UsageError("option '\(option)' expects a positive number of seconds, got '\(text)'")
        }
        return value
    }
}
