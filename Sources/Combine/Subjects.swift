import Foundation

/// A publisher that code outside it sends values through (Combine's `Subject`).
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends `value` to every subscriber.
    func send(_ value: Output)
}

extension Subject where Output == Void {
    /// Sends `()` to every subscriber.
    public func send() {
        send(())
    }
}

/// A subject that passes each value sent to the subscribers of that moment (Combine's `PassthroughSubject`).
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private let subscribers = SubscriberList<Output>()

    /// A subject with no subscribers.
    public init() {}

    /// Sends `value` to every current subscriber.
    public func send(_ value: Output) {
        subscribers.send(value)
    }

    /// Calls `receiveValue` with every later value.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribers.add(receiveValue)
    }
}

/// A subject that holds a current value and sends it to each new subscriber (Combine's `CurrentValueSubject`).
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private let subscribers = SubscriberList<Output>()
    private let lock = NSLock()
    private var current: Output

    /// A subject whose current value is `value`.
    public init(_ value: Output) {
        current = value
    }

    /// The current value; setting it sends it, as ``send(_:)`` does.
    public var value: Output {
        get { lock.withLock { current } }
        set { send(newValue) }
    }

    /// Makes `value` current and sends it to every subscriber.
    public func send(_ value: Output) {
        lock.withLock { current = value }
        subscribers.send(value)
    }

    /// Calls `receiveValue` with the current value now, then with every later one.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        receiveValue(value)
        return subscribers.add(receiveValue)
    }
}
