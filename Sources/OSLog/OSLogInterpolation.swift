/// Builds an ``OSLogMessage`` from a string literal's text and interpolated values.
///
/// Mirrors Apple's `OSLogInterpolation`. Values of any type can be interpolated;
/// each `appendInterpolation` accepts an optional `privacy:` argument
/// (see ``OSLogPrivacy``). Values are captured as closures and evaluated only when
/// the message is written.
public struct OSLogInterpolation: StringInterpolationProtocol {
    /// The pieces of the message, in order; each produces its text when called.
    var segments: [() -> String] = []

    /// Creates an empty interpolation.
    ///
    /// - Parameters:
    ///   - literalCapacity: The literal text's length; unused.
    ///   - interpolationCount: The number of interpolated values.
    public init(literalCapacity: Int, interpolationCount: Int) {
        segments.reserveCapacity(2 * interpolationCount + 1)
    }

    /// Appends literal text.
    ///
    /// - Parameter literal: The text.
    public mutating func appendLiteral(_ literal: String) {
        guard !literal.isEmpty else { return }
        segments.append { literal }
    }

    /// Appends a string.
    ///
    /// - Parameters:
    ///   - value: The string, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .auto
    ) {
        segments.append(value)
    }

    /// Appends an integer in decimal.
    ///
    /// - Parameters:
    ///   - value: The integer, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> Int, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { String(value()) }
    }

    /// Appends a floating-point number, written as Swift's `description` writes it.
    ///
    /// - Parameters:
    ///   - value: The number, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> Double, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { String(value()) }
    }

    /// Appends a Boolean as `true` or `false`.
    ///
    /// - Parameters:
    ///   - value: The Boolean, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> Bool, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { value() ? "true" : "false" }
    }

    /// Appends an error, written with `String(describing:)`.
    ///
    /// - Parameters:
    ///   - value: The error, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> any Error, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { String(describing: value()) }
    }

    /// Appends a value that describes itself, written with its `description`.
    ///
    /// - Parameters:
    ///   - value: The value, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> some CustomStringConvertible, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { value().description }
    }

    /// Appends a value of any other type, written with `String(describing:)`.
    ///
    /// Apple's `OSLogInterpolation` rejects some types (optionals, for instance) at
    /// compile time; this stand-in accepts them.
    ///
    /// - Parameters:
    ///   - value: The value, evaluated when the message is written.
    ///   - privacy: The privacy of the value; recorded, not enforced.
    public mutating func appendInterpolation(
        _ value: @autoclosure @escaping () -> some Any, privacy: OSLogPrivacy = .auto
    ) {
        segments.append { String(describing: value()) }
    }
}
