import Dispatch
import Synchronization

/// Runs an executable's async entry point on the thread that calls it (the main thread), instead
/// of on the work pool that a top-level `await` hands it to.
///
/// A top-level `await` parks the main thread in the dispatch library and starts a pool thread to
/// run the command, then wakes the main thread again to exit: two more thread switches per
/// command than a plain C program makes. On an idle machine they cost tens of microseconds; with
/// every processor busy each one waits for a time slice (2–5 ms measured with `perf sched latency`
/// beside `bench-floor spin`), and `signal --wait` took 2.2–3× its floor in a loaded goals run
/// (issue 44). Here the command's nonisolated async code runs on the calling thread through a task
/// executor preference (SE-0417); a continuation resumed on another thread (a dispatch source, a
/// helper thread) hands its work back to this one.
///
/// Only for code that does not need parallelism: child tasks inherit the preference and share this
/// one thread. Unstructured `Task {}`s and actors with executors of their own run where they would.
package enum CallingThread {
    /// Runs `operation` to its end on the calling thread and returns its result.
    package static func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) -> Result {
        let executor = CallingThreadExecutor()
        let result = Mutex<Result?>(nil)
        Task(executorPreference: executor) {
            let value = await operation()
            result.withLock { $0 = value }
            executor.finish()
        }
        executor.runUntilFinished()
        return result.withLock { $0! }
    }
}

/// The task executor of ``CallingThread``: a queue of jobs that the calling thread runs in order
/// until the entry point finishes.
private final class CallingThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    /// Counts jobs enqueued plus the finish: the calling thread sleeps on it between jobs.
    private let ready = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Wakes the calling thread with no job queued: that is the end (each job has its own signal).
    func finish() {
        ready.signal()
    }

    func runUntilFinished() {
        while true {
            ready.wait()
            // The queue holds a job or two at a time (one chain of work): taking from its front is cheap.
            let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let job else { return }  // the finish, with no job left before it
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
