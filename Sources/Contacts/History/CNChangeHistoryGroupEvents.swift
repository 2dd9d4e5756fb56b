import Foundation

/// A group was added, to the container with `containerIdentifier`.
open class CNChangeHistoryAddGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group as it is now.
    open private(set) var group: CNGroup
    /// The identifier of the container the group is in.
    open private(set) var containerIdentifier: String

    package init(group: CNGroup, containerIdentifier: String) {
        self.group = group
        self.containerIdentifier = containerIdentifier
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryAddGroupEvent: group=\(group.identifier)>" }
}

/// A group was updated (renamed).
open class CNChangeHistoryUpdateGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group as it is now.
    open private(set) var group: CNGroup

    package init(group: CNGroup) {
        self.group = group
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryUpdateGroupEvent: group=\(group.identifier)>" }
}

/// A group was deleted.
open class CNChangeHistoryDeleteGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The deleted group's identifier.
    open private(set) var groupIdentifier: String

    package init(groupIdentifier: String) {
        self.groupIdentifier = groupIdentifier
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String { "<CNChangeHistoryDeleteGroupEvent: group=\(groupIdentifier)>" }
}

/// A contact was added to a group.
open class CNChangeHistoryAddMemberToGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact added.
    open private(set) var member: CNContact
    /// The group it was added to.
    open private(set) var group: CNGroup

    package init(member: CNContact, group: CNGroup) {
        self.member = member
        self.group = group
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String {
        "<CNChangeHistoryAddMemberToGroupEvent: member=\(member.identifier), group=\(group.identifier)>"
    }
}

/// A contact was removed from a group (the contact itself stays).
open class CNChangeHistoryRemoveMemberFromGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The contact removed.
    open private(set) var member: CNContact
    /// The group it was removed from.
    open private(set) var group: CNGroup

    package init(member: CNContact, group: CNGroup) {
        self.member = member
        self.group = group
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }

    /// A short description for debugging.
    open override var description: String {
        "<CNChangeHistoryRemoveMemberFromGroupEvent: member=\(member.identifier), group=\(group.identifier)>"
    }
}

/// A group was added to a group. Apple's API has it; the simulated device has no subgroups (as
/// iOS's local container), so no history holds one.
open class CNChangeHistoryAddSubgroupToGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group added.
    open private(set) var subgroup: CNGroup
    /// The group it was added to.
    open private(set) var group: CNGroup

    package init(subgroup: CNGroup, group: CNGroup) {
        self.subgroup = subgroup
        self.group = group
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}

/// A group was removed from a group. Apple's API has it; the simulated device has no subgroups, so
/// no history holds one.
open class CNChangeHistoryRemoveSubgroupFromGroupEvent: CNChangeHistoryEvent, @unchecked Sendable {
    /// The group removed.
    open private(set) var subgroup: CNGroup
    /// The group it was removed from.
    open private(set) var group: CNGroup

    package init(subgroup: CNGroup, group: CNGroup) {
        self.subgroup = subgroup
        self.group = group
        super.init()
    }

    /// Calls `visitor.visit(self)`.
    open override func accept(_ visitor: any CNChangeHistoryEventVisitor) { visitor.visit(self) }
}
