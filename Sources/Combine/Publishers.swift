/// The namespace of the publishers that operators return, as in Combine (`Publishers.Map`, `Publishers.Share`…).
public enum Publishers {}

extension Publishers {
    /// Publishes each upstream value transformed (``Publisher/map(_:)``).
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure
        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation.
        public let transform: (Upstream.Output) -> Output

        /// A publisher of `upstream`'s values transformed by `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes to the upstream and delivers each value transformed.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let transform = transform
            return upstream.sink { receiveValue(transform($0)) }
        }
    }

    /// Publishes the non-nil results of a transformation (``Publisher/compactMap(_:)``).
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure
        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation; nil drops the value.
        public let transform: (Upstream.Output) -> Output?

        /// A publisher of `upstream`'s values transformed by `transform`, without the nils.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes to the upstream and delivers each non-nil result.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let transform = transform
            return upstream.sink { value in
                if let output = transform(value) { receiveValue(output) }
            }
        }
    }

    /// Publishes the upstream values that pass a test (``Publisher/filter(_:)``).
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure
        /// The publisher whose values are tested.
        public let upstream: Upstream
        /// The test a value passes to be published.
        public let isIncluded: (Upstream.Output) -> Bool

        /// A publisher of `upstream`'s values for which `isIncluded` is true.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes to the upstream and delivers each value that passes.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let isIncluded = isIncluded
            return upstream.sink { value in
                if isIncluded(value) { receiveValue(value) }
            }
        }
    }

    /// Publishes an upstream value only when it differs from the previous one (``Publisher/removeDuplicates()``).
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure
        /// The publisher whose repeated values are dropped.
        public let upstream: Upstream
        /// Whether two consecutive values are duplicates.
        public let predicate: (Output, Output) -> Bool

        /// A publisher of `upstream`'s values, without a value `predicate` finds equal to the one before.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes to the upstream; each subscriber compares with the last value it received.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let predicate = predicate
            var previous: Output?
            return upstream.sink { value in
                if let last = previous, predicate(last, value) { return }
                previous = value
                receiveValue(value)
            }
        }
    }
}

extension Publishers {
    /// Publishes the upstream values after the first `count` (``Publisher/dropFirst(_:)``).
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure
        /// The publisher whose first values are dropped.
        public let upstream: Upstream
        /// How many values each subscriber skips.
        public let count: Int

        /// A publisher of `upstream`'s values after the first `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes to the upstream; each subscriber skips its first `count` values.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            var remaining = count
            return upstream.sink { value in
                guard remaining <= 0 else {
                    remaining -= 1
                    return
                }
                receiveValue(value)
            }
        }
    }
}

extension Publisher {
    /// Skips the first `count` values (a `@Published` property's current value, with the default 1).
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }

    /// Transforms every value with `transform`.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Transforms every value with `transform`, dropping the nils.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Publishes only the values for which `isIncluded` is true.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Drops a value that `predicate` finds a duplicate of the one before it.
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Drops a value equal to the one before it.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}
