import Foundation

extension Publishers {
    /// One subscription to the upstream, shared by every subscriber (``Publisher/share()``).
    ///
    /// As in Combine, a class: the first subscriber connects it to the upstream and later ones receive the
    /// values from then on (nothing is replayed: a `@Published` property's current value reaches only the
    /// first subscriber); when the last subscriber leaves, the upstream subscription ends, and the next
    /// subscriber connects again.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher shared.
        public let upstream: Upstream
        private let subscribers = SubscriberList<Output>()
        private let lock = NSLock()
        private var connection: AnyCancellable?

        /// A publisher that shares one subscription to `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Adds a subscriber, connecting to the upstream on the first.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let token = subscribers.add(receiveValue)
            let connects = lock.withLock {
                guard connection == nil else { return false }
                connection = AnyCancellable {}
                return true
            }
            if connects {
                let live = upstream.sink { [subscribers] in subscribers.send($0) }
                lock.withLock { connection = live }
            }
            // The token holds the share (as a Combine subscription does), so a pipeline built from a
            // temporary `share()` lives as long as its subscribers.
            return AnyCancellable {
                token.cancel()
                self.disconnectWhenUnused()
            }
        }

        private func disconnectWhenUnused() {
            let ended = lock.withLock { () -> AnyCancellable? in
                guard subscribers.isEmpty else { return nil }
                defer { connection = nil }
                return connection
            }
            ended?.cancel()
        }

        /// Shares are equal only to themselves.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Shares one subscription to this publisher among every subscriber.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
