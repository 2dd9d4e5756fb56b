/// A process the provider started that was still running after the kit shut the provider down
/// (issue 42 item 8), and how the kit ended it.
///
/// On iOS an extension's processes end with it; a provider that leaves one behind here (a helper
/// started with `setsid`, say) would leave it on every launch. The kit ends it and names it in the
/// report, as a note: no rule of Apple's documentation covers it.
public struct OutlivingProcess: Codable, Equatable, Sendable {
    /// Its process id.
    public var pid: Int32
    /// Its command name (`/proc/PID/comm`), as it was when the run ended.
    public var command: String
    /// How the kit ended it: `SIGTERM`, `SIGKILL`, or `still running` when even SIGKILL did not end it
    /// (uninterruptible sleep, say).
    public var endedBy: String

    /// One process, as the report's text names it: `pid 123 (sleep): SIGKILL`.
    public var text: String { "pid \(pid) (\(command)): \(endedBy)" }

    /// A process and how it was ended.
    public init(pid: Int32, command: String, endedBy: String) {
        self.pid = pid
        self.command = command
        self.endedBy = endedBy
    }
}
