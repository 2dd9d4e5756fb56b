import ExtensionFoundation
import Foundation

/// The principal type of a Contact Provider extension; mark the conforming class `@main`.
///
/// As on iOS it refines `AppExtension` (ExtensionFoundation), which declares `init()` and
/// `configuration`; the framework supplies `configuration` and `main()` (the extension host) in
/// protocol extensions, so `@main` works whether or not the file imports ExtensionFoundation.
public protocol ContactProviderExtension: ContactItemEnumerating, AppExtension {
    /// Configures the extension for `domain`; always called before any enumeration (R15).
    func configure(for domain: any ContactProviderDomain)
    /// Called before the system terminates the extension.
    func invalidate() async throws
}

extension ContactProviderExtension {
    /// The extension's configuration, supplied by the framework (an extension should not write
    /// its own). On Linux it carries nothing: the simulated system reaches the extension through
    /// the App Group's FIFOs, not XPC.
    public var configuration: some AppExtensionConfiguration {
        ContactProviderExtensionConfiguration()
    }
}

/// The configuration every Contact Provider extension has; hidden behind `some`, as on iOS.
// `nonisolated init` is the point: a synthesized init would be isolated to the main actor.
// swift-format-ignore: UseSynthesizedInitializer
struct ContactProviderExtensionConfiguration: AppExtensionConfiguration {
    nonisolated init() {}
}
