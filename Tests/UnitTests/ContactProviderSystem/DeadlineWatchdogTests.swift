import Foundation
import Glibc
import Synchronization
import Testing

@testable import ContactProviderSystem

/// A watchdog clock that moves only when the test says, and a sleep that any change ends (as a
/// spurious wake-up would): the watchdog must re-read the clock and fire only what has passed.
private final class ManualWatchdogTiming: DeadlineWatchdog.Timing, @unchecked Sendable {
    private let condition = NSCondition()
    private var time = 0.0
    /// Bumped by every change (time, signal); the watchdog thread's last clock read saw `seenVersion`.
    private var version = 0
    private var seenVersion = -1
    private var sleeping = false
    private var watchdogThread: pthread_t?
    /// The test's own thread (the tests that hold the watchdog are synchronous: one thread throughout).
    /// Any other thread reading the clock is the watchdog's: its `Thread.name` may not be set yet when
    /// it first runs, and a hold that waited for the name let it through on a loaded machine.
    private let testThread = pthread_self()
    private(set) var signals = 0
    /// Whether the simulated process has a debugger attached.
    private var tracer = false

    func isTraced() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return tracer
    }

    func attachDebugger(_ attached: Bool) {
        change { $0.tracer = attached }
    }

    /// While true, the watchdog thread's clock reads wait: a process stopped before its new thread ran.
    private var holdingWatchdog = false

    /// Holds the watchdog thread at its next clock read (its first, for a thread not yet started)
    /// until `releaseWatchdog()`.
    func holdWatchdog() {
        change { $0.holdingWatchdog = true }
    }

    func releaseWatchdog() {
        change { $0.holdingWatchdog = false }
    }

    func now() -> Double {
        condition.lock()
        defer { condition.unlock() }
        while holdingWatchdog, pthread_equal(testThread, pthread_self()) == 0 { condition.wait() }
        if let watchdogThread, pthread_equal(watchdogThread, pthread_self()) != 0 { seenVersion = version }
        return time
    }

    func wait(until deadline: Double) {
        condition.lock()
        defer { condition.unlock() }
        watchdogThread = pthread_self()
        sleeping = true
        condition.broadcast()
        // Anything that changed since the watchdog read the clock ends the sleep.
        while time < deadline, version == seenVersion { condition.wait() }
        sleeping = false
    }

    func signal() {
        change { $0.signals += 1 }
    }

    func advance(by seconds: Double) {
        change { $0.time += seconds }
    }

    private func change(_ body: (ManualWatchdogTiming) -> Void) {
        condition.lock()
        body(self)
        version += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the watchdog sleeps having read the clock after the last change, so everything
    /// due by now has fired. False if it did not within 10 s of real time.
    func settle() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = Date().addingTimeInterval(10)
        while !(sleeping && seenVersion == version) {
            if !condition.wait(until: limit) { return false }
        }
        return true
    }

    var signalCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return signals
    }
}

/// The names of the deadlines that fired, with the watchdog clock's time when each fired.
private final class Fired: Sendable {
    private let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}

@Suite("DeadlineWatchdog: one thread fires every page time limit (R41), never before its deadline")
struct DeadlineWatchdogTests {
    private static func schedule(
        _ watchdog: DeadlineWatchdog, _ timing: ManualWatchdogTiming, _ name: String, after seconds: Double,
        into fired: Fired
    ) -> UInt64 {
        let deadline = timing.now() + seconds
        return watchdog.schedule(after: seconds) {
            // The watchdog's own clock at firing: never before the deadline.
            fired.append(timing.now() >= deadline ? name : "\(name) EARLY")
        }
    }

    @Test("Deadlines fire in order, each only once its time has passed; a cancelled one never fires")
    func firesInOrderAndCancelled() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        // Times in binary fractions, so that steps add up exactly.
        let cancelled = Self.schedule(watchdog, timing, "cancelled", after: 1.0 / 16, into: fired)
        _ = Self.schedule(watchdog, timing, "first", after: 1.0 / 8, into: fired)
        _ = Self.schedule(watchdog, timing, "second", after: 1.0 / 4, into: fired)
        watchdog.cancel(cancelled)
        #expect(timing.settle())
        // Small steps: every one wakes the thread (as a spurious wake-up would) before a deadline.
        for _ in 0..<7 {
            timing.advance(by: 1.0 / 64)
            #expect(timing.settle())
        }
        #expect(fired.all.isEmpty)
        timing.advance(by: 1.0 / 64)
        #expect(timing.settle())
        #expect(fired.all == ["first"])
        timing.advance(by: 1.0 / 8 - 1.0 / 1024)
        #expect(timing.settle())
        #expect(fired.all == ["first"])
        timing.advance(by: 1.0 / 1024)
        #expect(timing.settle())
        #expect(fired.all == ["first", "second"])
    }

    @Test("A deadline earlier than the one the thread sleeps on signals it; a later one does not")
    func earlierDeadlineWakesTheThread() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        let late = Self.schedule(watchdog, timing, "late", after: 30, into: fired)
        #expect(timing.settle())
        _ = Self.schedule(watchdog, timing, "later", after: 40, into: fired)
        #expect(timing.signalCount == 0)
        _ = Self.schedule(watchdog, timing, "early", after: 0.05, into: fired)
        #expect(timing.signalCount == 1)
        #expect(timing.settle())
        timing.advance(by: 0.05)
        #expect(timing.settle())
        watchdog.cancel(late)
        #expect(fired.all == ["early"])
    }

    @Test("With nothing registered past the idle tick, a new deadline still fires")
    func afterIdle() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        _ = Self.schedule(watchdog, timing, "one", after: 0, into: fired)
        #expect(timing.settle())
        #expect(fired.all == ["one"])
        timing.advance(by: DeadlineWatchdog.idleTick * 3)
        #expect(timing.settle())
        _ = Self.schedule(watchdog, timing, "two", after: 0.05, into: fired)
        #expect(timing.settle())
        timing.advance(by: 0.05)
        #expect(timing.settle())
        #expect(fired.all == ["one", "two"])
    }

    /// Holds jobs back until the test releases them: a machine so loaded that a queued task waits
    /// for a thread longer than the time limit.
    /// Whether a race ended before its limit.
    static func inTime(_ outcome: Deadline.Outcome) -> Bool {
        if case .timedOut = outcome { return false }
        return true
    }

    private final class HeldJobs: Sendable {
        private let jobs = Mutex<[@Sendable () async -> Void]>([])
        func start(_ job: @escaping @Sendable () async -> Void) { jobs.withLock { $0.append(job) } }
        var count: Int { jobs.withLock { $0.count } }
        func release() {
            for job in jobs.withLock({ $0 }) { Task { await job() } }
        }
    }

    @Test(
        "Under load (the call's task waits longer than the limit for a thread) the limit counts from when it runs: no timeout at once"
    )
    func limitCountsFromTheStart() async {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let held = HeldJobs()
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                Self.inTime(
                    await Deadline.race(seconds: 1, clock: WatchdogClock(watchdog: watchdog), start: held.start) {})
            }
            // The task of the call is queued, not running, while 5 s pass (the early firing of 9bbe981:
            // its deadline was registered at the call, so it fired before the page's first instruction).
            while held.count == 0 { await Task.yield() }
            _ = watchdog.schedule(after: 0) {}
            #expect(timing.settle())
            timing.advance(by: 5)
            #expect(timing.settle())
            held.release()
            return await group.next() ?? false
        }
        #expect(finished, "a call that ran for no time at all was reported as timed out")
    }

    /// A provider call that hangs until the test lets it go.
    private final class HangingCall: Sendable {
        private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let started = Mutex(false)
        func run() async {
            await withCheckedContinuation { continuation in
                self.continuation.withLock { $0 = continuation }
                started.withLock { $0 = true }
            }
        }
        var hasStarted: Bool { started.withLock { $0 } }
        func release() { continuation.withLock { $0?.resume() } }
    }

    @Test("A call that runs past its limit times out (on the watchdog's clock), and one that returns in time does not")
    func timesOutOnlyPastTheLimit() async {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let call = HangingCall()
        let startNow: @Sendable (@escaping @Sendable () async -> Void) -> Void = { job in Task { await job() } }
        let outcome = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                Self.inTime(
                    await Deadline.race(seconds: 1, clock: WatchdogClock(watchdog: watchdog), start: startNow, call.run)
                )
            }
            while !call.hasStarted { await Task.yield() }
            #expect(timing.settle())
            timing.advance(by: 1 - 1.0 / 1024)
            #expect(timing.settle())
            timing.advance(by: 1.0 / 1024)
            let verdict = await group.next() ?? true
            call.release()
            return verdict
        }
        #expect(outcome == false)
        let quick = Self.inTime(
            await Deadline.race(
                seconds: 1, clock: WatchdogClock(watchdog: DeadlineWatchdog(timing: ManualWatchdogTiming())),
                start: startNow, {}))
        #expect(quick)
    }
}

/// Issue 24: a debugger's stop is not counted against a limit; slowness and a plain SIGSTOP are.
/// The manual clock jumping past the watchdog's planned wake is a stop of the whole process (the
/// watchdog thread included): it wakes late by exactly the jump.
@Suite("DeadlineWatchdog: time stopped by a debugger does not count against a limit (R41, R11)")
struct DeadlineWatchdogDebuggerTests {
    private static func schedule(_ watchdog: DeadlineWatchdog, after seconds: Double, into fired: Fired) {
        _ = watchdog.schedule(after: seconds) { fired.append("limit") }
    }

    @Test("Stopped 15 s at a breakpoint with a debugger attached: the 10 s limit moves by the stop")
    func debuggerStopIsPaused() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        timing.attachDebugger(true)
        Self.schedule(watchdog, after: 10, into: fired)
        #expect(timing.settle())
        timing.advance(by: 0.5)  // one tick on time: the watchdog ticks while a debugger is attached
        #expect(timing.settle())
        timing.advance(by: 15)  // the stop: the watchdog wakes 14.5 s after its planned tick
        #expect(timing.settle())
        #expect(fired.all.isEmpty, "the stop counted against the limit")
        #expect(watchdog.pausedSeconds == 14.5)
        // 0.5 s ran before the stop and 0.5 s of the late tick counts as run time: 9 s remain,
        // run on time (each tick a step; a bigger step would be another stop).
        for _ in 0..<17 {
            timing.advance(by: 0.5)
            #expect(timing.settle())
        }
        #expect(fired.all.isEmpty)
        timing.advance(by: 0.5)
        #expect(timing.settle())
        #expect(fired.all == ["limit"], "the limit must still fire after the stop")
    }

    @Test("A provider that is merely slow under a debugger still times out: ticks on time pause nothing")
    func slowUnderDebuggerStillTimesOut() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        timing.attachDebugger(true)
        Self.schedule(watchdog, after: 10, into: fired)
        #expect(timing.settle())
        for _ in 0..<20 {
            timing.advance(by: 0.5)
            #expect(timing.settle())
        }
        #expect(fired.all == ["limit"])
        #expect(watchdog.pausedSeconds == 0)
    }

    @Test("Stopped with no debugger (SIGSTOP): the stop counts, as a device's watchdog counts a hung extension")
    func plainStopCounts() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        Self.schedule(watchdog, after: 10, into: fired)
        #expect(timing.settle())
        timing.advance(by: 15)
        #expect(timing.settle())
        #expect(fired.all == ["limit"])
        #expect(watchdog.pausedSeconds == 0)
    }

    @Test("Stopped at a breakpoint before the watchdog thread first ran: the returning call measures the stop")
    func stopBeforeTheThreadRan() {
        // The CI failure this holds: the process's first deadline starts the thread, the debugger
        // stops the process before that thread runs, and the call returns 15 s later before it does.
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        timing.attachDebugger(true)
        timing.holdWatchdog()
        let id = watchdog.schedule(after: 10) { fired.append("limit") }
        timing.advance(by: 15)
        watchdog.cancel(id)
        #expect(watchdog.pausedSeconds == 15, "the stop was not measured")
        timing.releaseWatchdog()
        #expect(timing.settle())
        #expect(fired.all.isEmpty)
        #expect(watchdog.pausedSeconds == 15, "the stop was counted twice")
    }

    @Test("Returning late with no debugger attached pauses nothing")
    func lateReturnWithoutDebugger() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        timing.holdWatchdog()
        let id = watchdog.schedule(after: 10) {}
        timing.advance(by: 5)
        watchdog.cancel(id)
        timing.releaseWatchdog()
        #expect(timing.settle())
        #expect(watchdog.pausedSeconds == 0)
    }

    @Test("With a debugger attached, a new deadline wakes a watchdog that sleeps idle, so that it ticks")
    func idleWatchdogTicksForNewDeadline() {
        let timing = ManualWatchdogTiming()
        let watchdog = DeadlineWatchdog(timing: timing)
        let fired = Fired()
        timing.attachDebugger(true)
        Self.schedule(watchdog, after: 0, into: fired)
        #expect(timing.settle())
        #expect(fired.all == ["limit"])
        let signals = timing.signalCount
        // The thread now sleeps the idle tick (5 s), longer than a tick: the new deadline must wake it.
        Self.schedule(watchdog, after: 10, into: fired)
        #expect(timing.signalCount == signals + 1)
        #expect(timing.settle())
        timing.advance(by: 0.5)
        #expect(timing.settle())
        timing.advance(by: 30)
        #expect(timing.settle())
        #expect(fired.all == ["limit"])
        #expect(watchdog.pausedSeconds == 29.5)
    }
}
