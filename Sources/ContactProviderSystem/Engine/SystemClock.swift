import Foundation
import Synchronization

/// The time source of the system engine: real time in processes, manual time in unit tests.
public protocol SystemClock: Sendable {
    /// Suspends for `seconds` (or until cancelled).
    func sleep(seconds: Double) async throws
    /// Monotonic seconds, for durations in reports.
    func now() -> Double
    /// Calls `fire` once `seconds` of this clock's time have passed, unless the returned closure
    /// is called first. Every time limit of the system (R11, R41) is raced on it (`Deadline.race`),
    /// so each runs on a manual clock in a unit test as it runs on real time in a process.
    func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

extension SystemClock {
    /// On the clock's own `sleep`: a manual clock's limit passes when its test advances it.
    public func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let timer = Task {
            do {
                try await sleep(seconds: seconds)
                fire()
            } catch {}
        }
        return { timer.cancel() }
    }
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

    /// On the process's one watchdog thread (no timer task per call; see P4), which does not count
    /// time the process spent stopped in a debugger (R41, R11).
    public func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        WatchdogClock(watchdog: .shared).schedule(after: seconds, fire)
    }
}

/// Real time on a given watchdog (the process's, or a test's with a manual timing).
struct WatchdogClock: SystemClock {
    let watchdog: DeadlineWatchdog

    func sleep(seconds: Double) async throws { try await ContinuousSystemClock().sleep(seconds: seconds) }
    func now() -> Double { ContinuousSystemClock().now() }

    func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let watchdog = self.watchdog
        let id = watchdog.schedule(after: seconds, fire)
        return { watchdog.cancel(id) }
    }
}
