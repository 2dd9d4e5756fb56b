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
///
/// **Debugger stops do not count** (issue 24), as on a device with Xcode's debugger attached. A
/// debugger stops every thread of the process (all-stop, gdb's and lldb's default), this one too, so
/// the watchdog measures a stop as the time it woke later than it planned. While a debugger is
/// attached (``DebuggerPresence``, read at each wake) and a deadline is pending, it wakes at least
/// every ``tracedTick`` seconds; waking more than ``stallSlack`` late with a debugger attached before
/// or after, it moves every pending deadline by the delay and adds it to ``pausedSeconds``. Without a
/// debugger nothing moves: a process stopped by a plain SIGSTOP, or merely slow, still times out.
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
        /// Whether a debugger is attached to the process (read at each wake).
        func isTraced() -> Bool
    }

    /// The process's watchdog (its thread starts with the first deadline).
    static let shared = DeadlineWatchdog(timing: MonotonicTiming())

    /// How long the thread sleeps with no deadline registered.
    static let idleTick = 5.0

    /// The longest sleep while a debugger is attached and a deadline is pending: a stop is measured
    /// to within this.
    static let tracedTick = 0.5

    /// How much later than planned a wake must be to count as a debugger stop (scheduling delays
    /// on a loaded machine stay below it).
    static let stallSlack = 0.25

    private struct Entry {
        var deadline: Double
        var fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// When the thread will wake next; nil before it starts.
        var plannedWake: Double?
        /// Whether a debugger was attached at the last wake.
        var traced = false
        /// Seconds of debugger stops taken off pending deadlines so far.
        var paused = 0.0
    }

    private let state = Mutex(State())
    let timing: any Timing

    init(timing: any Timing) {
        self.timing = timing
    }

    /// Calls `fire` (on the watchdog thread) once `seconds` have passed on the watchdog's clock,
    /// unless `cancel(_:)` comes first.
    func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let now = timing.now()
        let deadline = now + max(seconds, 0)
        let (id, mustWake, mustStart) = state.withLock { state -> (UInt64, Bool, Bool) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, fire: fire)
            // A thread that is started or woken now plans to run now: a debugger stop that begins
            // before it runs is then measured from now, not from a wake-up planned for later.
            guard let planned = state.plannedWake else {
                state.plannedWake = now
                return (state.nextID, false, true)
            }
            // Attached to a debugger, the thread must tick to measure a stop that starts now.
            let tick = state.traced && planned > now + Self.tracedTick
            if tick { state.plannedWake = now }
            return (state.nextID, deadline < planned || tick, false)
        }
        if mustStart { startThread() }
        if mustWake { timing.signal() }
        return id
    }

    /// Forgets a deadline (its call returned in time). Never wakes the thread.
    ///
    /// A call resumed after a debugger stop usually returns before the watchdog thread runs again:
    /// the stop is measured here then (and the thread's next measurement starts from now), so the
    /// call's trace can say it was paused.
    ///
    /// A late cancel with no debugger seen yet asks the kernel whether one is attached: the thread
    /// may not have run since the deadline was registered (the process's first deadline starts it,
    /// and a breakpoint in the call can stop the process before the new thread's first
    /// instruction), so nothing else would measure the stop, and the call that was stopped for 15 s
    /// neither timed out nor said it was paused. Only a cancel more than ``stallSlack`` after the
    /// thread's planned wake pays for that read, never a call that returns in time.
    func cancel(_ id: UInt64) {
        let now = timing.now()
        state.withLock { state in
            guard state.entries.removeValue(forKey: id) != nil else { return }
            guard let planned = state.plannedWake, now - planned > Self.stallSlack else { return }
            if !state.traced { state.traced = timing.isTraced() }
            if state.traced {
                state.paused += now - planned
                state.plannedWake = now
            }
        }
    }

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "deadline-watchdog"
        thread.start()
    }

    /// Seconds of debugger stops not counted against deadlines since the process started.
    var pausedSeconds: Double { state.withLock { $0.paused } }

    private func run() {
        while true {
            let now = timing.now()
            let traced = timing.isTraced()
            let (due, until) = state.withLock { state -> ([@Sendable () -> Void], Double) in
                if let planned = state.plannedWake, now - planned > Self.stallSlack, state.traced || traced,
                    !state.entries.isEmpty
                {
                    let stopped = now - planned
                    for id in state.entries.keys { state.entries[id]!.deadline += stopped }
                    state.paused += stopped
                }
                state.traced = traced
                let expired = state.entries.filter { $0.value.deadline <= now }
                for id in expired.keys { state.entries[id] = nil }
                var next = state.entries.values.map(\.deadline).min() ?? now + Self.idleTick
                if traced, !state.entries.isEmpty { next = min(next, now + Self.tracedTick) }
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

        func isTraced() -> Bool { DebuggerPresence.isTraced() }

        func signal() { wakeUp.signal() }

        /// Returns at `deadline` or at a signal, whichever comes first: the watchdog reads the clock again.
        func wait(until deadline: Double) {
            _ = wakeUp.wait(seconds: deadline - now())
        }
    }
}
