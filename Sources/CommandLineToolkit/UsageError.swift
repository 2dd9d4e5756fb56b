import Foundation

/// A usage error (exit code 2): the message names the problem.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the command line, naming the option or argument.
    package let message: String
    /// A usage error saying `message`.
    package init(_ message: String) { self.message = message }
    /// The message.
    package var description: String { message }
}
