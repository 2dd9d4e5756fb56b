import Foundation

/// The principal type of a Contact Provider extension; mark the conforming class `@main`.
///
/// On iOS this protocol also inherits `AppExtension` (ExtensionKit), which supplies `init()`
/// and `configuration`; on Linux there is no ExtensionKit, so `init()` is declared here and the
/// framework's `main()` (the extension host) comes from a protocol extension.
public protocol ContactProviderExtension: ContactItemEnumerating {
    /// Creates the extension; the system calls it once per process.
    init()
    /// Configures the extension for `domain`; always called before any enumeration (R15).
    func configure(for domain: any ContactProviderDomain)
    /// Called before the system terminates the extension.
    func invalidate() async throws
}
