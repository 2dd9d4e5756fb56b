import Foundation

/// Where and when a publisher delivers its values (``Publisher/receive(on:options:)``).
///
/// A small stand-in for Combine's `Scheduler`: it runs an action as soon as it can on its context
/// (a dispatch queue, a run loop, or at once). Combine's scheduler also schedules after a time (its
/// `SchedulerTimeType`, which `debounce` and `delay` use); this one does not, so neither operator exists.
public protocol Scheduler<SchedulerOptions> {
    /// The options an action can be scheduled with.
    associatedtype SchedulerOptions

    /// Runs `action` on the scheduler's context as soon as it can.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
}

extension Scheduler {
    /// Runs `action` on the scheduler's context as soon as it can, without options.
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }
}

extension DispatchQueue: Scheduler {
    /// How an action is dispatched on the queue (Combine's `DispatchQueue.SchedulerOptions`).
    public struct SchedulerOptions {
        /// The quality of service of the work item.
        public var qos: DispatchQoS
        /// The work item's flags.
        public var flags: DispatchWorkItemFlags
        /// The group the work item joins, if any.
        public var group: DispatchGroup?

        /// Options with the given values (by default, those of a plain `async`).
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// Runs `action` asynchronously on the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedSendable(value: action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { action.value() }
    }
}

extension RunLoop: Scheduler {
    /// Run-loop scheduling has no options (Combine's `RunLoop.SchedulerOptions`).
    public struct SchedulerOptions: Sendable {}

    /// Runs `action` the next time the run loop runs (it must run: the main thread's does under `dispatchMain`).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedSendable(value: action)
        perform { action.value() }
    }
}

/// A scheduler that runs each action at once, on the calling thread (Combine's `ImmediateScheduler`).
public struct ImmediateScheduler: Scheduler, Sendable {
    /// No options.
    public typealias SchedulerOptions = Never

    /// The scheduler.
    public static let shared = ImmediateScheduler()

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        action()
    }
}

extension Publishers {
    /// Delivers the upstream's values on a scheduler (``Publisher/receive(on:options:)``).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are moved.
        public let upstream: Upstream
        /// Where the values are delivered.
        public let scheduler: Context
        /// The options each delivery is scheduled with.
        public let options: Context.SchedulerOptions?

        /// A publisher of `upstream`'s values, delivered on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes to the upstream; each value is delivered on the scheduler, in order (on a serial
        /// context), and not at all once the subscription is cancelled.
        public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
            let scheduler = scheduler
            let options = options
            let live = LiveFlag()
            let upstreamToken = upstream.sink { value in
                scheduler.schedule(options: options) {
                    if live.isLive { receiveValue(value) }
                }
            }
            return AnyCancellable {
                live.end()
                upstreamToken.cancel()
            }
        }
    }
}

extension Publisher {
    /// Delivers this publisher's values on `scheduler`, such as `DispatchQueue.main`.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

/// Whether a subscription is still live, read on the scheduler's thread.
final class LiveFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var live = true

    var isLive: Bool { lock.withLock { live } }

    func end() {
        lock.withLock { live = false }
    }
}
