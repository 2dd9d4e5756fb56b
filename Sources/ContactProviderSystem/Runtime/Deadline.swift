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

    /// Runs `operation`, returning when it ends or after `seconds`, whichever comes first.
    package static func race(seconds: Double, _ operation: @escaping @Sendable () async throws -> Void) async -> Outcome
    {
        let gate = Gate()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            gate.install(continuation)
            let work = Task {
                do {
                    try await operation()
                    gate.resume(.finished)
                } catch {
                    gate.resume(.threw(error))
                }
            }
            // On the process's watchdog, so time stopped by a debugger does not count here either (R11).
            let deadline = DeadlineWatchdog.shared.schedule(after: seconds) {
                Task { if gate.resume(.timedOut) { work.cancel() } }
            }
            gate.onResume { DeadlineWatchdog.shared.cancel(deadline) }
        }
    }

    /// Resumes the continuation exactly once, whichever side comes first.
    private final class Gate: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Outcome, Never>?
            var resumed = false
            var cleanup: (@Sendable () -> Void)?
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

        @discardableResult
        func resume(_ outcome: Outcome) -> Bool {
            let (waiting, cleanup) = state.withLock {
                state -> (CheckedContinuation<Outcome, Never>?, (@Sendable () -> Void)?) in
                guard !state.resumed else { return (nil, nil) }
                state.resumed = true
                defer {
                    state.continuation = nil
                    state.cleanup = nil
                }
                return (state.continuation, state.cleanup)
            }
            guard let waiting else { return false }
            cleanup?()
            waiting.resume(returning: outcome)
            return true
        }
    }
}
