import Glibc

/// Waiting for a state that sends no event: a process that is not our child exiting, a server
/// starting to accept connections. Every such wait in the package is this one loop, on the
/// monotonic clock (a wall-clock step must neither cut a wait short nor stretch it).
package enum Poll {
    /// Checks `condition` every `interval` seconds for up to `seconds`; returns whether it held.
    /// The condition is checked once more at the deadline, so a state reached in the last interval
    /// counts. An error it throws ends the wait (a server that exited instead of starting).
    @discardableResult
    package static func until(seconds: Double, every interval: Double, _ condition: () throws -> Bool) rethrows -> Bool
    {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(max(seconds, 0) * 1000))
        while clock.now < deadline {
            if try condition() { return true }
            usleep(useconds_t(max(interval, 0) * 1_000_000))
        }
        return try condition()
    }
}
