import AppGroupStore

/// The device's groups as a change history reader knew them: for each group and each membership
/// that a save not excluded by the fetch (`excludedTransactionAuthors`) changed since the token, its
/// state just before the first such save. What only excluded authors changed is absent: the reader
/// knows it, so it gives no event.
///
/// With no author excluded there is one step, from the groups at the token to the groups now, and
/// the baseline is the groups at the token.
struct GroupChangeBaseline {
    /// The groups after one save that changed them.
    struct Step {
        /// Every group after the save.
        var groups: [DeviceGroup]
        /// Whether the save's author is one the fetch excludes.
        var excluded: Bool
    }

    /// One contact's membership of one group.
    struct Membership: Hashable {
        var group: String
        var contact: String
    }

    /// Each group an included save added, renamed or deleted: the group just before (nil: it did not
    /// exist), in the order they were first changed.
    private(set) var groups: [(identifier: String, before: DeviceGroup?)] = []
    /// Each membership an included save changed: whether the contact was a member just before, in
    /// the order they were first changed.
    private(set) var memberships: [(membership: Membership, wasMember: Bool)] = []

    /// The baseline of the groups `before` changed by `steps`, in order.
    init(before: [DeviceGroup], steps: [Step]) {
        var current = Self.byIdentifier(before)
        // Every group identifier seen so far, in the order first seen (so events come in a stable order).
        var order: [String] = []
        var seen: Set<String> = []
        for group in before where seen.insert(group.identifier).inserted { order.append(group.identifier) }
        var changedGroups: Set<String> = []
        var changedMemberships: Set<Membership> = []
        for step in steps {
            let next = Self.byIdentifier(step.groups)
            defer { current = next }
            for group in step.groups where seen.insert(group.identifier).inserted { order.append(group.identifier) }
            guard !step.excluded else { continue }
            for identifier in order {
                let old = current[identifier]
                let new = next[identifier]
                if old?.name != new?.name, changedGroups.insert(identifier).inserted {
                    groups.append((identifier, old))
                }
                let newMembers = Set(new?.members ?? [])
                let oldMembers = Set(old?.members ?? [])
                let flipped =
                    (old?.members ?? []).filter { !newMembers.contains($0) }
                    + (new?.members ?? []).filter { !oldMembers.contains($0) }
                for contact in flipped {
                    let membership = Membership(group: identifier, contact: contact)
                    if changedMemberships.insert(membership).inserted {
                        memberships.append((membership, oldMembers.contains(contact)))
                    }
                }
            }
        }
    }

    private static func byIdentifier(_ groups: [DeviceGroup]) -> [String: DeviceGroup] {
        Dictionary(groups.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
    }
}
