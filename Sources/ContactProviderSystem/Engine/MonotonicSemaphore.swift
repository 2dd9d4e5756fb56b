import Glibc

/// A counting semaphore whose timed wait runs on `CLOCK_MONOTONIC`.
///
/// On Linux `DispatchSemaphore.wait(timeout:)` ends in `sem_timedwait`, whose absolute deadline is
/// on `CLOCK_REALTIME`: a wall-clock step forward (NTP, a user setting the date) ends the wait at
/// once, and a step back lengthens it (issue 31 item 8). A condition variable created with
/// `pthread_condattr_setclock(CLOCK_MONOTONIC)` measures the same limit on a clock nothing steps.
/// Every time limit in the simulator that blocks a thread waits on this (or on `poll(2)`, whose
/// relative timeout is monotonic too).
package final class MonotonicSemaphore: @unchecked Sendable {
    // The pthread objects never move (allocated once) and `count` is only touched under `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count: Int
    /// The most signals held at once (1: a wake-up flag, as the deadline watchdog uses it).
    private let limit: Int

    /// A semaphore holding `value` signals, at most `limit` at a time (further signals coalesce).
    package init(value: Int = 0, limit: Int = .max) {
        count = value
        self.limit = limit
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Seconds on `CLOCK_MONOTONIC`: `ContinuousSystemClock`'s, where the timed waits measure.
    package static func now() -> Double {
        ContinuousSystemClock().now()
    }

    /// Adds one signal and wakes one waiter.
    package func signal() {
        pthread_mutex_lock(mutex)
        count = min(count + 1, limit)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Takes one signal, waiting for it without a limit.
    package func wait() {
        pthread_mutex_lock(mutex)
        while count == 0 { pthread_cond_wait(condition, mutex) }
        count -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Takes one signal if one arrives within `seconds` of monotonic time; false when the time passed.
    ///
    /// A zero or negative `seconds` only takes a signal that is already there.
    package func wait(seconds: Double) -> Bool {
        let deadline = Self.now() + max(0, seconds)
        var time = timespec()
        if deadline.isFinite, deadline < Double(Int.max / 2) {
            let whole = deadline.rounded(.down)
            time.tv_sec = Int(whole)
            time.tv_nsec = min(Int((deadline - whole) * 1e9), 999_999_999)
        } else {
            time.tv_sec = Int.max / 2
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0 {
            // ETIMEDOUT is the only way out without a signal; a spurious wake-up (0) waits again.
            if pthread_cond_timedwait(condition, mutex, &time) == ETIMEDOUT, count == 0 { return false }
        }
        count -= 1
        return true
    }
}
