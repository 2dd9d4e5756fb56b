/// A type that delivers a sequence of values to its subscribers over time.
///
/// A small stand-in for Combine's `Publisher`, as far as models shared between an app and its
/// extension use it: `$property.sink { … }` and `objectWillChange.sink { … }`. There are no
/// operators and no back-pressure: a subscriber receives every value synchronously, on the
/// thread that sent it. Combine itself does not exist on Linux.
public protocol Publisher<Output, Failure> {
    /// The kind of values published.
    associatedtype Output
    /// The kind of errors published; `Never` for every publisher here.
    associatedtype Failure: Error

    /// Calls `receiveValue` with every value published from now on (and, for `@Published`,
    /// the current value first), until the returned token is cancelled or released.
    func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable
}

/// The subscribers of one publisher, in subscription order.
///
/// A class so every copy of a publisher shares them; not `Sendable`, like Combine's subjects
/// used from one thread (a model object and its publishers belong to one isolation domain).
final class SubscriberList<Value> {
    private var next = 0
    private var subscribers: [(id: Int, receive: (Value) -> Void)] = []

    /// Adds `receive`; the returned token removes it.
    func add(_ receive: @escaping (Value) -> Void) -> AnyCancellable {
        let id = next
        next += 1
        subscribers.append((id, receive))
        return AnyCancellable { [weak self] in
            self?.subscribers.removeAll { $0.id == id }
        }
    }

    /// Delivers `value` to every subscriber.
    func send(_ value: Value) {
        for subscriber in subscribers { subscriber.receive(value) }
    }
}
