import Foundation

/// The parsed arguments of one command.
package struct ParsedArguments: Sendable, Equatable {
    /// Option values by name (a flag maps to an empty array entry per occurrence).
    package var options: [String: [String]] = [:]
    /// Positional arguments in order.
    package var positionals: [String] = []

    /// The single value of an option, or nil.
    package func value(_ name: String) -> String? { options[name]?.last }
    /// All values of a repeatable option.
    package func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag or option is present.
    package func has(_ name: String) -> Bool { options[name] != nil }

    /// Whether `flag` was given.
    package func has(_ flag: Flag) -> Bool { has(flag.name) }

    /// Whether `option` was given.
    package func has<Value>(_ option: Option<Value>) -> Bool { has(option.name) }

    /// The value of `option` (its last occurrence), or nil when it was not given.
    ///
    /// `parseArguments` has already checked the text, so this throws only for arguments put
    /// together by hand.
    package func value<Value>(_ option: Option<Value>) throws -> Value? {
        try value(option.name).map { try option.value(from: $0) }
    }

    /// The value of `option`, or `defaultValue` when it was not given.
    package func value<Value>(_ option: Option<Value>, default defaultValue: Value) throws -> Value {
        try value(option) ?? defaultValue
    }

    /// Every value of a repeatable `option`, in order.
    package func values<Value>(_ option: Option<Value>) throws -> [Value] {
        try values(option.name).map { try option.value(from: $0) }
    }
}
