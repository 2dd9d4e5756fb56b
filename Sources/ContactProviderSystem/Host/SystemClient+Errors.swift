import CommandLineToolkit
import Foundation

extension SystemClient {
    /// Errors the host can act on.
    package enum ClientError: Error, Equatable, CustomStringConvertible {
        /// The domain is disabled (R7: the system never runs the extension then).
        case domainDisabled
        /// No provider executable is registered or discoverable.
        case noExtension
        /// The provider did not answer in time.
        case timeout(seconds: Double, log: String)
        /// The provider exited before answering.
        case providerExited(log: String)
        /// The reply could not be read.
        case malformedReply(String)
        /// The wait was interrupted (Ctrl-C, once `HostInterrupt.install()` was called).
        case interrupted
        /// The provider failed to start `failures` times in a row; the next launch is allowed in
        /// `retryAfter` seconds (``LaunchBackoff``).
        case launchBackoff(failures: Int, retryAfter: Double, log: String)
        /// The provider did not answer an invalidate within `seconds` (or did not exit after it), so
        /// the host ended it and what it started (``ProcessReaper``); `summary` says how.
        case providerEnded(pid: Int32, seconds: Double, summary: String, log: String)
        /// A provider (`pid`) holds the domain's lock but does not read the request FIFO at `path`
        /// (it was removed or replaced under it), and did not leave within `seconds`.
        case providerUnreachable(pid: Int32, path: String, seconds: Double)

        package var description: String {
            switch self {
            case .domainDisabled:
                return
                    "the domain is disabled; run 'contacts-host enable' first (signalling a disabled domain is an error, R7)"
            case .noExtension:
                return "no provider executable is registered; run 'contacts-host enable --extension PATH'"
            case .timeout(let seconds, let log):
                return "the provider did not answer within \(seconds) s (its log: \(log))"
            case .providerExited(let log):
                return "the provider exited before answering (its log: \(log))"
            case .malformedReply(let reason):
                return "malformed reply from the provider: \(reason)"
            case .interrupted:
                return "interrupted while waiting for the provider's answer"
            case .launchBackoff(let failures, let retryAfter, let log):
                return
                    "the provider failed to start \(failures) times in a row (its log: \(log)); the next launch is "
                    + "allowed in \(String(format: "%.1f", retryAfter)) s. Fix the provider, or run "
                    + "'contacts-host enable' to allow one at once"
            case .providerEnded(let pid, let seconds, let summary, let log):
                return
                    "the provider (pid \(pid)) did not answer the invalidate within \(SecondsText.format(seconds)) s "
                    + "(R11), so it and what it started were \(summary) (its log: \(log))"
            case .providerUnreachable(let pid, let path, let seconds):
                return
                    "the provider (pid \(pid)) holds the domain but does not read \(path) (the pipe was removed or "
                    + "replaced under it), and it did not leave within \(SecondsText.format(seconds)) s; the "
                    + "provider just launched refused to run beside it. End it (`kill \(pid)`) and signal again"
            }
        }
    }
}
