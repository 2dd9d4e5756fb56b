import Glibc

/// Runs the provider's housekeeping (the system store's compaction) at background priority, as iOS
/// runs maintenance at a background quality of service: on a busy machine a command that reads
/// the store meanwhile (`status`, `system list`) gets the processor before it.
///
/// Without it, `status` right after a full sync of 1,000,000 contacts took 2.24× its settled time
/// while every core was busy (`contacts-bench --goals`, loaded, issue 44): the compaction, the spinners
/// and `status` shared two processors as equals. The work still runs at full speed on an idle
/// machine, and a doorbell still stops it (its `shouldStop`).
///
/// Linux keeps a nice value per thread, and an unprivileged thread cannot lower its own again, so
/// the work runs on a thread of its own that ends with it, while the caller waits.
///
/// A nice value weighs a thread against the others of its scheduling group only (sched(7): "under
/// group scheduling, a thread's nice value has an effect for scheduling decisions only relative to
/// other threads in the same task group"). Where Linux's autogroup makes each session a group (the
/// provider leads a session of its own), the compaction is alone in its group and a reader in
/// another session competes with that group as a whole. `SCHED_IDLE` is no way out: without
/// groups it would starve the compaction, and its check for a doorbell, while every processor is
/// busy.
enum BackgroundPriority {
    /// The nice value of the background thread: a tenth of a normal thread's share of a busy
    /// processor (the kernel's weights: 110 against 1,024), not none, so the work still finishes.
    static let niceValue: Int32 = 10

    /// Runs `body` on a new thread at ``niceValue`` and returns its result; the calling thread waits
    /// (it would have run `body` itself), so `body` may use what the caller owns. When no thread can
    /// be started (the user's process limit), `body` runs on the calling thread at its priority.
    static func run<Result>(_ body: () -> Result) -> Result {
        withoutActuallyEscaping(body) { body in
            var result: Result?
            let work = Work { result = body() }
            let context = Unmanaged.passRetained(work)
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { context in
                    let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                    // who 0: the calling thread alone (Linux keeps a nice value per thread).
                    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, BackgroundPriority.niceValue)
                    work.body()
                    return nil
                }, context.toOpaque())
            if started == 0 {
                pthread_join(thread, nil)
            } else {
                context.release()
                work.body()
            }
            return result!
        }
    }

    /// The work handed to the background thread. The caller reads what it wrote only after
    /// `pthread_join`, which orders the two threads' accesses.
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
