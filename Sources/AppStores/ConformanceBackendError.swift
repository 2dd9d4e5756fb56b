import Foundation

/// A backend could not edit or read its store; the message names the store and what failed.
public struct ConformanceBackendError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for a person.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
