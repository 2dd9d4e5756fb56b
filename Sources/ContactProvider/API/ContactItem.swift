import Contacts
import Foundation

/// An item that a Contact Provider extension hands to the system.
public enum ContactItem: Equatable, Hashable {
    /// A person or organization: the contact's values and the app's stable identifier for it.
    case contact(CNMutableContact, ContactItem.Identifier)

    /// The app's identifier for an item.
    ///
    /// `Sendable` is not in Apple's documented conformances; it is added because Swift 6 requires
    /// it for the `rootContainer` constant, and it cannot break code written for iOS.
    public struct Identifier: Equatable, Hashable, Sendable {
        /// The identifier's text.
        public let value: String

        /// An identifier with the given text.
        public init(_ value: String) {
            self.value = value
        }

        /// The top-level container that holds all of the domain's contacts; the collection the
        /// system passes to `enumerator(for:)`. (Its text is undocumented by Apple.)
        public static let rootContainer = ContactItem.Identifier("__ROOT_CONTAINER__")
    }
}
