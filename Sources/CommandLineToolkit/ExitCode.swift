/// The exit statuses every executable of the simulator shares (`contacts-host`, the providers).
///
/// A status a single tool adds (the provider's `alreadyRunning`) extends this type where that tool lives.
public enum ExitCode {
    /// It did what it was asked.
    public static let success: Int32 = 0
    /// The operation failed; the message says what was, and was not, written.
    public static let failure: Int32 = 1
    /// The command line was wrong; nothing was run.
    public static let usage: Int32 = 2
}
