import ContactProviderTesting
import Synchronization
import Testing

@testable import ContactProviderSystem

/// Issue 29, item 2: one race primitive for every time limit, on the `SystemClock` given: the
/// invalidation limit (R11) runs on a `ManualClock` as the page limit (R41) does.
@Suite("Deadline.race: every limit on the clock it is given")
struct DeadlineRaceTests {
    /// An `invalidate()` that never returns on its own; it notices cancellation.
    private final class HangingInvalidate: Sendable {
        let cancelled = Mutex(false)
        func run() async throws {
            do {
                try await Task.sleep(nanoseconds: .max / 2)
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
        }
    }

    @Test("an invalidate() that never returns times out when the manual clock passes the limit, and is cancelled (R11)")
    func hangingInvalidateOnAManualClock() async {
        let clock = ManualClock()
        let call = HangingInvalidate()
        let outcome = await withTaskGroup(of: Deadline.Outcome.self) { group in
            group.addTask { await Deadline.race(seconds: 5, clock: clock) { try await call.run() } }
            await clock.waitForSleeper()
            clock.advance(by: 4.9)
            clock.advance(by: 0.1)
            return await group.next()!
        }
        guard case .timedOut = outcome else {
            Issue.record("expected a timeout, got \(outcome)")
            return
        }
        // The abandoned call was asked to stop (it notices on its own time: wait for it without a sleep).
        while !call.cancelled.withLock({ $0 }) { await Task.yield() }
    }

    @Test("an operation that returns or throws in time is reported as such, on a manual clock that never moves")
    func inTime() async {
        struct Refused: Error {}
        let clock = ManualClock()
        guard case .finished = await Deadline.race(seconds: 5, clock: clock, {}) else {
            Issue.record("a call that returned at once was not reported finished")
            return
        }
        guard case .threw(let error) = await Deadline.race(seconds: 5, clock: clock, { throw Refused() }) else {
            Issue.record("a call that threw was not reported as having thrown")
            return
        }
        #expect(error is Refused)
    }
}
