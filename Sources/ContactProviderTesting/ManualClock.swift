import ContactProviderSystem
import Foundation
import Synchronization

/// A clock that moves only when told to, after SwiftNIO's `EmbeddedEventLoop`.
///
/// Timeouts in the engine become deterministic: a test advances past the page timeout and the
/// engine reports `enumerationTimeout` without anyone sleeping. Give it to `SyncEngine(paths:clock:)`.
public final class ManualClock: SystemClock {
    private struct Sleeper {
        var deadline: Double
        var continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var now: Double = 0
        var sleepers: [UUID: Sleeper] = [:]
        var waitingForSleepers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// A clock at time 0 with nobody sleeping.
    public init() {}

    /// The clock's time: seconds advanced since it was made.
    public func now() -> Double {
        state.withLock { $0.now }
    }

    /// Suspends until `advance(by:)` moves the time past now + `seconds` (or the task is cancelled).
    public func sleep(seconds: Double) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.sleepers[id] = Sleeper(deadline: state.now + seconds, continuation: continuation)
                    defer { state.waitingForSleepers = [] }
                    return state.waitingForSleepers
                }
                for item in waiters { item.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    public func advance(by seconds: Double) {
        let due = state.withLock { state -> [CheckedContinuation<Void, Error>] in
            state.now += seconds
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for key in ready.keys { state.sleepers[key] = nil }
            return ready.values.map(\.continuation)
        }
        for item in due { item.resume() }
    }

    /// Suspends until at least one task sleeps on this clock (so a test can advance past it).
    public func waitForSleeper() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if !state.sleepers.isEmpty { return true }
                state.waitingForSleepers.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
