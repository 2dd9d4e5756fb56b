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
