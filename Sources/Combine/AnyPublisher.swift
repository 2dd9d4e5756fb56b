/// A publisher whose type hides the publisher it wraps (``Publisher/eraseToAnyPublisher()``).
///
/// Mirrors Combine's `AnyPublisher`.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let subscribe: (@escaping (Output) -> Void) -> AnyCancellable

    /// Wraps `publisher`.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        subscribe = { publisher.sink(receiveValue: $0) }
    }

    /// Subscribes to the wrapped publisher.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribe(receiveValue)
    }
}

extension Publisher {
    /// This publisher, its type erased.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// A publisher of one value (Combine's `Just`): each subscriber receives it at once.
public struct Just<Output>: Publisher {
    /// It never fails.
    public typealias Failure = Never

    /// The value published.
    public let output: Output

    /// A publisher of `output`.
    public init(_ output: Output) {
        self.output = output
    }

    /// Delivers ``output`` now.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        receiveValue(output)
        return AnyCancellable {}
    }
}
