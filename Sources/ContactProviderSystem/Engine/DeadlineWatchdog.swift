import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread that fires the page and batch time limits (R41) of every enumerate call in the process.
///
/// Racing each call against its own sleeping task cost an idle signal (P4) three thread wake-ups: a
/// task for the timer, the timer's registration with Dispatch, and the cancelled sleeper waking to
/// end. Here a call registers its deadline under a lock and unregisters it when it returns; nothing
/// wakes. The thread sleeps until the earliest deadline, or, with none, for `idleTick` seconds, so a
/// new deadline later than its planned wake-up (the default 10 s limit against a 5 s tick) needs no
/// signal: it sees it when it next wakes. Only a deadline earlier than that wakes it.
final class DeadlineWatchdog: Sendable {
    /// The process's watchdog (its thread starts with the first deadline).
    static let shared = DeadlineWatchdog()

    /// How long the thread sleeps with no deadline registered.
    static let idleTick = 5.0

    private struct Entry {
        var deadline: Double
        var fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// When the thread will wake next (monotonic seconds); nil before it starts.
        var plannedWake: Double?
    }

    private let state = Mutex(State())
    private let wake = Condition()

    /// Calls `fire` (on the watchdog thread) once `seconds` have passed, unless `cancel(_:)` comes first.
    func schedule(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = Self.now() + max(seconds, 0)
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
        if mustWake { wake.signal() }
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
            let now = Self.now()
            let due = state.withLock { state -> [@Sendable () -> Void] in
                let expired = state.entries.filter { $0.value.deadline <= now }
                for id in expired.keys { state.entries[id] = nil }
                state.plannedWake = state.entries.values.map(\.deadline).min() ?? now + Self.idleTick
                return expired.values.sorted { $0.deadline < $1.deadline }.map(\.fire)
            }
            due.forEach { $0() }
            let until = state.withLock { $0.plannedWake ?? now + Self.idleTick }
            wake.wait(until: until)
        }
    }

    /// Monotonic seconds (the clock `ContinuousSystemClock` uses).
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A flag and a condition variable on the monotonic clock: `signal` wakes `wait` early.
    private final class Condition: @unchecked Sendable {
        // The pthread objects never move (class storage) and are only touched under `mutex`.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var signalled = false

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        func signal() {
            pthread_mutex_lock(mutex)
            signalled = true
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }

        /// Waits until `deadline` (monotonic seconds) or a `signal`, whichever comes first.
        func wait(until deadline: Double) {
            var time = timespec()
            time.tv_sec = Int(deadline)
            time.tv_nsec = Int((deadline - Double(Int(deadline))) * 1e9)
            pthread_mutex_lock(mutex)
            while !signalled {
                if pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT { break }
            }
            signalled = false
            pthread_mutex_unlock(mutex)
        }
    }
}
