/// The principal type of an app extension: the system creates it with `init()` when it launches
/// the extension's process and reads its ``configuration``.
///
/// Mirrors `ExtensionFoundation.AppExtension` as an extension point's protocol sees it. On Linux
/// there is no XPC, so a configuration carries no connection; the ContactProvider framework
/// supplies `configuration` for every `ContactProviderExtension`, and its `main()` (the extension
/// host) makes `@main` work. Apple's own `main()` for this protocol belongs to ExtensionKit's
/// scene-based (UI) extensions, which cannot exist here, so none is declared: an extension file
/// that imports this module gets exactly one `main()`, the extension point's.
public protocol AppExtension {
    /// The type of the extension's configuration, inferred from ``configuration``.
    associatedtype Configuration: AppExtensionConfiguration

    /// The extension's configuration; extension points such as ContactProvider supply it.
    @MainActor @preconcurrency var configuration: Configuration { get }

    /// Creates the extension; the system calls it once per process.
    init()
}
