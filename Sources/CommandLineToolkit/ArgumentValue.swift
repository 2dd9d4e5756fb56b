import Foundation

/// Typed readers of option values; malformed values are usage errors. Each has the shape of
/// `Option`'s `convert`, so `Option<Int>("--page-size", value: "N", help: …, convert: ArgumentValue.positiveInt)`.
package enum ArgumentValue {
    /// A positive integer.
    package static func positiveInt(_ text: String, option: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("option '\(option)' expects a positive integer, got '\(text)'")
        }
        return value
    }

    /// A positive number of seconds.
    package static func seconds(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value > 0, value.isFinite else {
            throw UsageError("option '\(option)' expects a positive number of seconds, got '\(text)'")
        }
        return value
    }

    /// A non-negative integer, such as a random seed.
    package static func nonNegativeInteger(_ text: String, option: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw UsageError("option '\(option)' expects a non-negative integer, got '\(text)'")
        }
        return value
    }
}

/// Seconds as people read them in help, errors and reports: `10`, `0.5`, `1e-05` (`%g`: six
/// significant digits, no trailing zeros). The one spelling of a duration written for people
/// (issue 46); its reader is `ArgumentValue.seconds`, which reads what it writes.
package enum SecondsText {
    /// `value` written as `%g`: `10` for 10.0, `0.5` for 0.5.
    package static func format(_ value: Double) -> String {
        String(format: "%g", value)
    }
}
