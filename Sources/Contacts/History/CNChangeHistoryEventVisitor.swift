import Foundation

/// An object that handles change history events, each with its own `visit(_:)` (Apple's
/// `CNChangeHistoryEventVisitor`); `CNChangeHistoryEvent.accept(_:)` calls the one for its kind.
///
/// As in Apple's protocol the four contact visits are required and the group visits optional.
/// Swift has no `@objc optional` on Linux, so the optional ones have default implementations that
/// ignore the event: a visitor implements those it needs. (Declare them in the conforming class
/// itself, as with any protocol default: a subclass adding one later is not called through the
/// protocol.)
public protocol CNChangeHistoryEventVisitor: NSObjectProtocol {
    /// Everything the app knew is gone (no token, a provider's reset, a disabled domain): forget it;
    /// add events for everything now follow.
    func visit(_ event: CNChangeHistoryDropEverythingEvent)
    /// A contact was added.
    func visit(_ event: CNChangeHistoryAddContactEvent)
    /// A contact was updated.
    func visit(_ event: CNChangeHistoryUpdateContactEvent)
    /// A contact was deleted.
    func visit(_ event: CNChangeHistoryDeleteContactEvent)
    /// A group was added (optional).
    func visit(_ event: CNChangeHistoryAddGroupEvent)
    /// A group was updated (optional).
    func visit(_ event: CNChangeHistoryUpdateGroupEvent)
    /// A group was deleted (optional).
    func visit(_ event: CNChangeHistoryDeleteGroupEvent)
    /// A contact was added to a group (optional).
    func visit(_ event: CNChangeHistoryAddMemberToGroupEvent)
    /// A contact was removed from a group (optional).
    func visit(_ event: CNChangeHistoryRemoveMemberFromGroupEvent)
    /// A group was added to a group (optional; the simulated device has no subgroups).
    func visit(_ event: CNChangeHistoryAddSubgroupToGroupEvent)
    /// A group was removed from a group (optional; the simulated device has no subgroups).
    func visit(_ event: CNChangeHistoryRemoveSubgroupFromGroupEvent)
}

/// The optional visits: Objective-C's `@optional` methods, which a visitor need not implement.
extension CNChangeHistoryEventVisitor {
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryAddGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryUpdateGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryDeleteGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryAddMemberToGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryRemoveMemberFromGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryAddSubgroupToGroupEvent) {}
    /// Ignores the event unless the visitor implements it.
    public func visit(_ event: CNChangeHistoryRemoveSubgroupFromGroupEvent) {}
}
