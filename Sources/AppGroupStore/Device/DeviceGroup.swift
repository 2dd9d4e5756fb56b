import Foundation

/// A group of the device's own contacts (Apple's `CNGroup`): a name and the identifiers of its
/// members, all of them contacts of the device's local container.
package struct DeviceGroup: Codable, Equatable, Sendable {
    /// The group's stable identifier.
    package var identifier: String
    /// The group's name, as the user sees it.
    package var name: String
    /// The identifiers of the contacts in the group, in the order they were added.
    package var members: [String]

    /// A group named `name` with `members`.
    package init(identifier: String, name: String, members: [String] = []) {
        self.identifier = identifier
        self.name = name
        self.members = members
    }
}

/// What the device's contact store keeps beside its contacts, in the same journal: the groups
/// (written with every change, so a change to contacts and groups is one atomic write).
package struct DeviceMeta: Codable, Equatable, Sendable {
    /// Every group of the local container, in the order they were created.
    package var groups: [DeviceGroup]

    /// Meta holding `groups`.
    package init(groups: [DeviceGroup] = []) {
        self.groups = groups
    }
}
