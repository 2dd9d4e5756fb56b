import Foundation
import Glibc
import Synchronization

/// One thread that fires the page and batch time limits (R41) of every enumerate call in the process.
///
/// Racing each call against its own sleeping task cost an idle signal (P4) three thread wake-ups: a
/// task for the timer, the timer's registration with Dispatch, and the cancelled sleeper waking to
/// end. Here a call registers its deadline under a lock and unregisters it when it returns; nothing
/// wakes. The thread sleeps until the earliest deadline, or, with none, for `idleTick` seconds, so a
/// new deadline later than its planned wake-up (the default 10 s limit against a 5 s tick) needs no
/// signal: it sees it when it next wakes. Only a deadline earlier than that wakes it.
///
/// Whatever wakes the thread (a signal, a timed wait that returns early, a spurious wake-up), it
/// fires only deadlines that its clock says have passed. Callbacks run on the watchdog thread and
/// must be short (the engine's hops to a task; see `SyncEngine.race`).
final class DeadlineWatchdog: Sendable {
    /// The clock the watchdog reads and the sleep it takes: monotonic time in production, a manual
    /// clock in tests (so that "time passes while the caller is descheduled" is a step of the test).
    protocol Timing: Sendable {
        /// Seconds on the clock deadlines are measured on.
        func now() -> Double
        /// Sleeps until `deadline` on that clock or a `signal()`, whichever comes first (it may also
        /// return earlier: the watchdog checks the clock again).
        func wait(until deadline: Double)
        /// Ends the current (or the next) `wait` early.
        func signal()
    }

    /// The process's watchdog (its thread starts with the first deadline).
    static let shared = DeadlineWatchdog(timing: MonotonicTiming())

    /// How long the thread sleeps with no deadline registered.
    static let idleTick = 5.0

    private struct Entry {
        var deadline: Double
        var fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// When the thread will wake next; nil before it starts.
        var plannedWake: Double?
    }

    private let state = Mutex(State())
    let timing: any Timing

    init(timing: any Timing) {
        self.timing = timing
    }

    /// Calls `fire` (on the watchdog thread) once `seconds` have passed on the watchdog's clock,
    /// unless `cancel(_:)` comes first.
    func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = timing.now() + max(seconds, 0)
        let (id, mustWake, mustStart) = state.withLock { state -> (UInt64, Bool, Bool) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, fire: fire)
            guard let planned = state.plannedWake else {
                state.plannedWake = deadline
                return (state.nextID, false, true)
            }
            return (state.nextID, deadline < planned, false)
        }
        if mustStart { startThread() }
        if mustWake { timing.signal() }
        return id
    }

    /// Forgets a deadline (its call returned in time). Never wakes the thread.
    func cancel(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "deadline-watchdog"
        thread.start()
    }

    private func run() {
        while true {
            let now = timing.now()
            let (due, until) = state.withLock { state -> ([@Sendable () -> Void], Double) in
                let expired = state.entries.filter { $0.value.deadline <= now }
                for id in expired.keys { state.entries[id] = nil }
                let next = state.entries.values.map(\.deadline).min() ?? now + Self.idleTick
                state.plannedWake = next
                return (expired.values.sorted { $0.deadline < $1.deadline }.map(\.fire), next)
            }
            for fire in due { fire() }
            timing.wait(until: until)
        }
    }

    /// CLOCK_MONOTONIC and a wake-up flag on it: a `MonotonicSemaphore` that holds at most one signal
    /// (signals while the watchdog is busy coalesce into one wake-up).
    final class MonotonicTiming: Timing {
        private let wakeUp = MonotonicSemaphore(limit: 1)

        func now() -> Double { MonotonicSemaphore.now() }

        func signal() { wakeUp.signal() }

        /// Returns at `deadline` or at a signal, whichever comes first: the watchdog reads the clock again.
        func wait(until deadline: Double) {
            _ = wakeUp.wait(seconds: deadline - now())
        }
    }
}
