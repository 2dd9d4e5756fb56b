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
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                if gate.resume(.timedOut) { work.cancel() }
            }
        }
    }

    /// Resumes the continuation exactly once, whichever side comes first.
    private final class Gate: Sendable {
        private let continuation = Mutex<CheckedContinuation<Outcome, Never>?>(nil)

        func install(_ waiting: CheckedContinuation<Outcome, Never>) {
            continuation.withLock { $0 = waiting }
        }

        @discardableResult
        func resume(_ outcome: Outcome) -> Bool {
            guard
                let waiting = continuation.withLock({ state -> CheckedContinuation<Outcome, Never>? in
                    defer { state = nil }
                    return state
                })
            else { return false }
            waiting.resume(returning: outcome)
            return true
        }
    }
}
