/// The configuration of an app extension that shows no UI.
///
/// Mirrors `ExtensionFoundation.AppExtensionConfiguration`. On iOS it also accepts the host's
/// `NSXPCConnection`; Linux has no XPC (the simulator's system talks to the extension through
/// FIFOs and files), so the protocol has no requirements here.
@MainActor @preconcurrency
public protocol AppExtensionConfiguration: Sendable {}
