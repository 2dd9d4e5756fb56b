@testable import ContactProviderSystem
import Foundation
import Synchronization
import Testing

/// The names of the deadlines that fired, in order.
private final class Fired: Sendable {
    private let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}

@Suite("DeadlineWatchdog: one thread fires every page time limit (R41)")
struct DeadlineWatchdogTests {
    /// Schedules `name`, recording its firing in `fired`, then runs `then`.
    private static func schedule(
        _ watchdog: DeadlineWatchdog, _ name: String, after seconds: Double, into fired: Fired,
        then: (@Sendable () -> Void)? = nil
    ) -> UInt64 {
        watchdog.schedule(after: seconds) {
            fired.append(name)
            then?()
        }
    }

    @Test("Deadlines fire in order; a cancelled one never fires")
    func firesInOrderAndCancelled() async {
        let watchdog = DeadlineWatchdog()
        let fired = Fired()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let cancelled = Self.schedule(watchdog, "cancelled", after: 0.05, into: fired)
            _ = Self.schedule(watchdog, "first", after: 0.1, into: fired)
            _ = Self.schedule(watchdog, "second", after: 0.2, into: fired) { done.resume() }
            watchdog.cancel(cancelled)
        }
        #expect(fired.all == ["first", "second"])
    }

    @Test("A deadline earlier than the one the thread sleeps on wakes it: it fires first")
    func earlierDeadlineWakesTheThread() async {
        let watchdog = DeadlineWatchdog()
        let fired = Fired()
        let late = Self.schedule(watchdog, "late", after: 30, into: fired)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = Self.schedule(watchdog, "early", after: 0.05, into: fired) { done.resume() }
        }
        watchdog.cancel(late)
        #expect(fired.all == ["early"])
    }

    @Test("With nothing registered for longer than the idle tick, a new deadline still fires")
    func afterIdle() async {
        let watchdog = DeadlineWatchdog()
        let fired = Fired()
        // The thread starts, fires this one, and then sleeps for its idle tick with nothing registered.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = Self.schedule(watchdog, "one", after: 0, into: fired) { done.resume() }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = Self.schedule(watchdog, "two", after: 0.05, into: fired) { done.resume() }
        }
        #expect(fired.all == ["one", "two"])
    }
}
