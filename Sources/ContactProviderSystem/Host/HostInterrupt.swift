import Glibc
import Synchronization

/// Turns Ctrl-C (SIGINT, and SIGTERM/SIGHUP) during a host's wait into an error, so the wait's
/// cleanup runs: a `signal --wait` killed by the default action left its reply FIFO behind.
///
/// Opt-in (`install()`), for command-line hosts: a library must not take over an app's signals.
/// The handler only sets a flag (async-signal-safe); `SystemClient` checks it while it waits and
/// throws `ClientError.interrupted`.
package enum HostInterrupt {
    private static let raised = Atomic<Bool>(false)

    /// Whether an interrupt arrived since `install()`.
    package static var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Installs the handlers (idempotent).
    package static func install() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { _ in HostInterrupt.raised.store(true, ordering: .relaxed) }
        }
        unblockOnThisThread()
    }

    /// Lets this thread take SIGINT, SIGTERM and SIGHUP. A command that blocks may run on a thread
    /// of the dispatch library, which blocks every signal: when no other thread can take one (no
    /// work pool was started), Ctrl-C would stay pending for ever.
    package static func unblockOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
