/// A log message: a string literal, possibly with interpolated values.
///
/// Mirrors Apple's `OSLogMessage`. Write it as a string literal:
/// `logger.info("Loaded \(count) contacts for \(name, privacy: .public)")`.
///
/// Interpolated values are captured as closures and only evaluated when the
/// message is written, as on Apple platforms.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    /// The interpolation type that builds a message.
    public typealias StringInterpolation = OSLogInterpolation

    /// The literal text and the interpolated values, in order.
    let interpolation: OSLogInterpolation

    /// Creates a message from an interpolated string literal.
    ///
    /// - Parameter stringInterpolation: The literal's pieces.
    public init(stringInterpolation: OSLogInterpolation) {
        self.interpolation = stringInterpolation
    }

    /// Creates a message from a plain string literal.
    ///
    /// - Parameter value: The literal.
    public init(stringLiteral value: String) {
        var interpolation = OSLogInterpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.interpolation = interpolation
    }

    /// The message's text, with every interpolated value evaluated and written in full.
    ///
    /// Not part of Apple's API; for tests and for the simulator's own output.
    package var rendered: String {
        interpolation.segments.map { $0() }.joined()
    }
}
