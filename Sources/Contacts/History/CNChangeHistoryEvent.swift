import Foundation

/// One change in the device's contacts history (Apple's `CNChangeHistoryEvent`): a subclass for each
/// kind, which `accept(_:)` hands to the matching `visit(_:)` of a ``CNChangeHistoryEventVisitor``.
open class CNChangeHistoryEvent: NSObject, NSCopying, @unchecked Sendable {
    package override init() {
        super.init()
    }

    /// Calls `visitor`'s `visit(_:)` for this event's kind.
    open func accept(_ visitor: any CNChangeHistoryEventVisitor) {}

    /// Events are immutable: the copy is the event itself.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// Everything the app knew of the device's contacts is to be dropped; add events for everything
/// follow. Given for a nil `startingToken`, and when the history since the token is gone: a
/// provider domain was reset or disabled, or its store was compacted past the token.
open class CNChangeHistoryDropEverythingEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryDropEverythingEvent>" }
}

/// A contact was added, to the container with `containerIdentifier`.
open class CNChangeHistoryAddContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact as it is now.
    open private(set) var contact: CNContact
    /// The identifier of the container the contact is in.
    open private(set) var containerIdentifier: String?

    package init(contact: CNContact, containerIdentifier: String?) {
        self.contact = contact
        self.containerIdentifier = containerIdentifier
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String {
        "<CNChangeHistoryAddContactEvent: contact=\(contact.identifier), container=\(containerIdentifier ?? "nil")>"
    }
}

/// A contact was updated.
open class CNChangeHistoryUpdateContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact as it is now.
    open private(set) var contact: CNContact

    package init(contact: CNContact) {
        self.contact = contact
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryUpdateContactEvent: contact=\(contact.identifier)>" }
}

/// A contact was deleted.
open class CNChangeHistoryDeleteContactEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The deleted contact's identifier.
    open private(set) var contactIdentifier: String

    package init(contactIdentifier: String) {
        self.contactIdentifier = contactIdentifier
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryDeleteContactEvent: contact=\(contactIdentifier)>" }
}
