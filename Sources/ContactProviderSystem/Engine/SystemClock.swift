import Foundation
import Synchronization

/// The time source of the system engine: real time in processes, manual time in unit tests.
public protocol SystemClock: Sendable {
    /// Suspends for `seconds` (or until cancelled).
    func sleep(seconds: Double) async throws
    /// Monotonic seconds, for durations in reports.
    func now() -> Double
}

/// Real time.
public struct ContinuousSystemClock: SystemClock {
    public init() {}

    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1_000_000_000))
    }

    public func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A clock that moves only when told to, after SwiftNIO's `EmbeddedEventLoop`.
///
/// Timeouts in the engine become deterministic: a test advances past the page timeout and the
/// engine reports `enumerationTimeout` without anyone sleeping.
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

    public init() {}

    public func now() -> Double {
        state.withLock { $0.now }
    }

    public func sleep(seconds: Double) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.sleepers[id] = Sleeper(deadline: state.now + seconds, continuation: continuation)
                    defer { state.waitingForSleepers = [] }
                    return state.waitingForSleepers
                }
                waiters.forEach { $0.resume() }
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
        due.forEach { $0.resume() }
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
