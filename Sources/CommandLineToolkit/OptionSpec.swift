import Foundation

/// One option a command accepts.
package struct OptionSpec: Sendable {
    /// `--name`.
    package let name: String
    /// A one-letter spelling (`-f`), for the few options used often enough at a prompt to want one.
    package let short: String?
    /// The value's placeholder (`N`, `PATH`); nil for a flag.
    package let value: String?
    /// Whether it may be given more than once.
    package let repeatable: Bool
    /// One line of help.
    package let help: String
    /// Whether the command cannot run without it (shown without brackets in the usage line).
    package let required: Bool
    /// Checks one value's text when the arguments are parsed, so a malformed value is a usage
    /// error before the command touches anything (set by a typed `Option`).
    package let check: (@Sendable (_ text: String, _ name: String) throws -> Void)?

    /// An option (with a `value` placeholder) or a flag (without one), taken as text.
    package init(
        _ name: String, short: String? = nil, value: String? = nil, repeatable: Bool = false, required: Bool = false,
        help: String, check: (@Sendable (_ text: String, _ name: String) throws -> Void)? = nil
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.required = required
        self.help = help
        self.check = check
    }

    /// `--name VALUE ...` as shown in usage lines and option lists.
    package var synopsis: String {
        name + (value.map { " \($0)" } ?? "") + (repeatable ? " ..." : "")
    }
}

/// The positional arguments a command accepts.
package struct PositionalSpec: Sendable {
    /// Placeholder in usage (`ID`, `FILE`).
    package let name: String
    /// Fewest allowed.
    package let minimum: Int
    /// Most allowed (`Int.max` for "any number").
    package let maximum: Int

    package init(_ name: String, minimum: Int, maximum: Int) {
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
    }

    /// No positional arguments.
    package static let none = PositionalSpec("", minimum: 0, maximum: 0)
}

/// Anything a command can list among its options: a typed `Option`, a `Flag`, or a bare `OptionSpec`.
package protocol OptionDeclaration: Sendable {
    /// What the parser, the help and the completion scripts need to know.
    var spec: OptionSpec { get }
}

extension OptionSpec: OptionDeclaration {
    /// Itself.
    package var spec: OptionSpec { self }
}

/// An option declared once, with its type: the name, placeholder and help the parser, the help
/// text and the completion scripts use, and how its text becomes a value. The parser checks every
/// value with `convert`, so a command reads `arguments.value(Self.timeout)` as a `Double`
/// without naming the option again or re-validating it.
package struct Option<Value: Sendable>: OptionDeclaration {
    /// The option as the parser sees it.
    package let spec: OptionSpec
    private let convert: @Sendable (_ text: String, _ name: String) throws -> Value

    /// An option whose text is turned into a `Value` by `convert` (which throws `UsageError`).
    package init(
        _ name: String, value placeholder: String, repeatable: Bool = false, required: Bool = false, help: String,
        convert: @escaping @Sendable (_ text: String, _ name: String) throws -> Value
    ) {
        spec = OptionSpec(
            name, value: placeholder, repeatable: repeatable, required: required, help: help,
            check: { text, name in _ = try convert(text, name) })
        self.convert = convert
    }

    /// The option's name (`--timeout`).
    package var name: String { spec.name }

    /// `text` as a value of this option.
    package func value(from text: String) throws -> Value { try convert(text, spec.name) }
}

extension Option where Value == String {
    /// An option taken as text.
    package init(
        _ name: String, value placeholder: String, repeatable: Bool = false, required: Bool = false, help: String
    ) {
        self.init(name, value: placeholder, repeatable: repeatable, required: required, help: help) { text, _ in text }
    }
}

/// A flag: an option without a value (`--json`).
package struct Flag: OptionDeclaration {
    /// The flag as the parser sees it.
    package let spec: OptionSpec

    /// A flag named `name`, also spelled `short` (`-f`) when one is given.
    package init(_ name: String, short: String? = nil, help: String) {
        spec = OptionSpec(name, short: short, help: help)
    }

    /// The flag's name (`--json`).
    package var name: String { spec.name }
}
