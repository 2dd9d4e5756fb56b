/// A token that ends a subscription when it is cancelled or released.
///
/// Mirrors Combine's `AnyCancellable`, including `store(in:)` for the usual
/// `Set<AnyCancellable>` property.
public final class AnyCancellable: Hashable {
    private var cancelAction: (() -> Void)?

    /// A token that calls `cancel` once, when cancelled or released.
    public init(_ cancel: @escaping () -> Void) {
        cancelAction = cancel
    }

    deinit {
        cancelAction?()
    }

    /// Ends the subscription; later calls do nothing.
    public func cancel() {
        let action = cancelAction
        cancelAction = nil
        action?()
    }

    /// Keeps the token in `set`, so the subscription lives as long as the set holds it.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Keeps the token in `collection`.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Tokens are equal only to themselves.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
