import Foundation

/// A type that delivers a sequence of values to its subscribers over time.
///
/// A small stand-in for Combine's `Publisher`, as far as iOS app and extension code uses it:
/// `$property.sink { … }`, `objectWillChange`, `NotificationCenter.default.publisher(for:)`, subjects,
/// `map`, `compactMap`, `filter`, `removeDuplicates`, `share()`, `receive(on:)`,
/// `eraseToAnyPublisher()` and `assign(to:)`. There is no back-pressure and no completion: a subscriber
/// receives every value, on the thread that sent it unless `receive(on:)` moves it, until its token is
/// cancelled or released. Combine itself does not exist on Linux.
///
/// Where this differs from Apple's protocol: the requirement is ``sink(receiveValue:)`` rather than
/// `receive(subscriber:)` (there is no `Subscriber`), so code that calls Combine compiles unchanged,
/// while a type of your own that adopts `Publisher` implements `sink`.
public protocol Publisher<Output, Failure> {
    /// The kind of values published.
    associatedtype Output
    /// The kind of errors published (none is ever sent here).
    associatedtype Failure: Error

    /// Calls `receiveValue` with every value published from now on (and, for `@Published` and
    /// `CurrentValueSubject`, the current value first), until the returned token is cancelled or released.
    func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable
}

/// The subscribers of one publisher, in subscription order.
///
/// A class so every copy of a publisher shares them. `@unchecked Sendable`: the list is guarded by `lock`,
/// and values are delivered outside it, so a subscriber may subscribe or cancel while receiving (a value
/// sent from another thread, as `receive(on:)` and notifications do, reaches the subscribers of that moment).
final class SubscriberList<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var subscribers: [(id: Int, receive: (Value) -> Void)] = []

    /// Adds `receive`; the returned token removes it.
    func add(_ receive: @escaping (Value) -> Void) -> AnyCancellable {
        let id = lock.withLock {
            let id = next
            next += 1
            subscribers.append((id, receive))
            return id
        }
        return AnyCancellable { [weak self] in
            self?.remove(id)
        }
    }

    /// Whether anyone is subscribed.
    var isEmpty: Bool {
        lock.withLock { subscribers.isEmpty }
    }

    /// Delivers `value` to every subscriber.
    func send(_ value: Value) {
        for subscriber in lock.withLock({ subscribers }) { subscriber.receive(value) }
    }

    private func remove(_ id: Int) {
        lock.withLock { subscribers.removeAll { $0.id == id } }
    }
}

/// A value carried across a `@Sendable` boundary (a dispatch queue, a notification observer) that Apple's
/// Combine, written before strict concurrency, carries unchecked too: a subscriber's closure runs where
/// the code that subscribed asked (`receive(on:)`), which is the caller's promise, not the compiler's.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
