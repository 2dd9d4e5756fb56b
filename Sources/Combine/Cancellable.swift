/// A subscription, or any activity, that can be cancelled.
///
/// Mirrors Combine's `Cancellable`; ``AnyCancellable`` adopts it and wraps any other adopter.
public protocol Cancellable {
    /// Ends the activity; later calls do nothing.
    func cancel()
}

extension AnyCancellable: Cancellable {
    /// A token that cancels `cancellable` once, when cancelled or released.
    public convenience init(_ cancellable: some Cancellable) {
        self.init { cancellable.cancel() }
    }
}

extension Cancellable {
    /// Keeps the cancellable in `set` as an ``AnyCancellable``.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
