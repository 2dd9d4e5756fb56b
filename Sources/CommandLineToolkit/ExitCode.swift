/// The exit statuses every executable of the simulator shares (`contacts-host`, the providers).
///
/// A status a single tool adds (the provider's `alreadyRunning`) extends this type where that tool lives.
package enum ExitCode {
    /// It did what it was asked.
    package static let success: Int32 = 0
    /// The operation failed; the message says what was, and was not, written.
    package static let failure: Int32 = 1
    /// The command line was wrong; nothing was run.
    package static let usage: Int32 = 2
}
