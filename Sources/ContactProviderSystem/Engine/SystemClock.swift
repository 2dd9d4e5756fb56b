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
