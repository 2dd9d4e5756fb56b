import Contacts
import Foundation

/// An item that a Contact Provider extension hands to the system.
public enum ContactItem: Equatable, Hashable {
    /// A person or organization: the contact's values and the app's stable identifier for it.
    case contact(CNMutableContact, ContactItem.Identifier)

    /// The app's identifier for an item.
    ///
    /// Not `Sendable`, as Apple's SDK declares it (issue 23, item 5): code that sends one across
    /// isolation fails here as in Xcode.
    public struct Identifier: Equatable, Hashable {
        /// The identifier's text.
        public let value: String

        /// An identifier with the given text.
        public init(_ value: String) {
            self.value = value
        }

        /// The top-level container that holds all of the domain's contacts; the collection the
        /// system passes to `enumerator(for:)`. (Its text is undocumented by Apple.) `nonisolated(unsafe)`:
        /// an immutable constant of a type that holds one `String`, which this Swift 6 module must spell
        /// out for a non-`Sendable` type (Apple's module, built in Swift 5 mode, needs nothing).
        nonisolated(unsafe) public static let rootContainer = ContactItem.Identifier("__ROOT_CONTAINER__")
    }
}
