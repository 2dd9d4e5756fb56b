import Foundation

/// A usage error (exit code 2): the message names the problem.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the command line, naming the option or argument.
    public let message: String
    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
