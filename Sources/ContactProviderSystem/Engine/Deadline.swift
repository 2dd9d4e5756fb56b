import Foundation
import Synchronization

/// Races an operation against a time limit and returns at the limit, without waiting for it.
///
/// A task group cannot do this: `withTaskGroup` returns only after every child has ended, so an
/// operation that never returns (an `invalidate()` that hangs) keeps the caller waiting forever,
/// and R11 (`extensionInvalidateTimeout`) was never enforced. Here the operation runs in its own
/// unstructured task; at the deadline the caller goes on and the operation is left behind (the
/// provider process then exits, which ends it).
package enum Deadline {
    /// How a raced operation ended.
    package enum Outcome: Sendable {
        /// It returned in time.
        case finished
        /// It threw in time.
        case threw(any Error)
        /// The time limit passed first.
        case timedOut
    }

    /// Runs `operation`, returning when it ends or after `seconds` of `clock`'s time, whichever
    /// comes first. This is the one race of the system's time limits (R11, R41): real time on the
    /// process's watchdog, or a test's manual clock.
    ///
    /// The limit measures the operation, not the wait for a thread to run it: the deadline is
    /// registered when the operation's task starts, not when it is queued. (Registered at the call,
    /// a task that waited longer than the limit for one of the few cooperative threads, as under a
    /// full test suite on two cores, timed out before its first instruction: "enumerationTimeout at
    /// once".) A deadline that passes decides on a task of its own, queued behind a completion that
    /// is already waiting for a thread. On a timeout the operation's task is cancelled and left
    /// behind (the provider's code may ignore cancellation; the provider process then exits).
    ///
    /// - Parameter start: runs the operation's job as a task (a test holds it back, as a loaded
    ///   machine does); nil: a task of its own, cancelled on a timeout.
    package static func race(
        seconds: Double, clock: any SystemClock = ContinuousSystemClock(),
        start: ((@escaping @Sendable () async -> Void) -> Void)? = nil,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async -> Outcome {
        let gate = Gate()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            gate.install(continuation)
            let job: @Sendable () async -> Void = {
                let cancelDeadline = clock.schedule(after: seconds) { Task { gate.resume(.timedOut) } }
                gate.onResume(cancelDeadline)
                do {
                    try await operation()
                    gate.resume(.finished)
                } catch {
                    gate.resume(.threw(error))
                }
            }
            if let start {
                start(job)
            } else {
                let work = Task { await job() }
                gate.onTimeout { work.cancel() }
            }
        }
    }

    /// Resumes the continuation exactly once, whichever side comes first.
    private final class Gate: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            var resumed = false
            var timedOut = false
            var cleanup: (@Sendable () -> Void)?
            var onTimeout: (@Sendable () -> Void)?
        }

        private let state = Mutex(State())

        func install(_ waiting: CheckedContinuation<Outcome, Never>) {
            state.withLock { $0.continuation = waiting }
        }

        /// Runs `cleanup` once the race is decided (at once if it already is).
        func onResume(_ cleanup: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                if state.resumed { return true }
                state.cleanup = cleanup
                return false
            }
            if runNow { cleanup() }
        }

        /// Runs `action` if the race is (or later is) decided by the time limit.
        func onTimeout(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                if state.timedOut { return true }
                if !state.resumed { state.onTimeout = action }
                return false
            }
            if runNow { action() }
        }

        @discardableResult
        func resume(_ outcome: Outcome) -> Bool {
            let isTimeout: Bool
            if case .timedOut = outcome { isTimeout = true } else { isTimeout = false }
            let (waiting, cleanup, timeoutAction) = state.withLock {
                state -> (CheckedContinuation<Outcome, Never>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?) in
                guard !state.resumed else { return (nil, nil, nil) }
                state.resumed = true
                state.timedOut = isTimeout
                defer {
                    state.continuation = nil
                    state.cleanup = nil
                    state.onTimeout = nil
                }
                return (state.continuation, state.cleanup, isTimeout ? state.onTimeout : nil)
            }
            guard let waiting else { return false }
            cleanup?()
            timeoutAction?()
            waiting.resume(returning: outcome)
            return true
        }
    }
}
