import AppGroupStore
import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// The app's control surface for its Contact Provider extension. Use it in the app, not in the extension.
///
/// On Linux the "system" behind it is this package's simulated Contacts daemon: the manager
/// writes the domain's state into the App Group and rings the provider's doorbell (a FIFO),
/// launching the registered provider executable when none is running (R12).
///
/// A plain `public class`, neither `final` nor `Sendable`, as Apple's SDK declares it (its state is
/// the domain identifier; everything else lives in files shared by every process).
public class ContactProviderManager {
    /// Everything it does, below the Apple-shaped module (shared with `contacts-host`).
    private let manager: DomainManager

    /// A manager for the domain (by default the default domain).
    ///
    /// - Throws: `domainNotRegistered` for any other identifier (R3, as observed on iOS 18);
    ///   `extensionNotFound` when no provider executable is registered or discoverable (R2).
    public convenience init(domainIdentifier: String = DefaultContactProviderDomain.identifier) throws {
        try self.init(appGroup: .current, domainIdentifier: domainIdentifier)
    }

    /// A manager for the domain in `appGroup`, for the simulator's own tools (`contacts-host` passes
    /// the App Group it was given instead of making it the process's App Group).
    package init(appGroup: AppGroup, domainIdentifier: String = DefaultContactProviderDomain.identifier) throws {
        // R13, issue 40: the manager is the app's ("Use it in the app, not in the extension", Apple's
        // ContactProviderManager page). What iOS throws in an extension is not documented; the one
        // error the documentation gives the initializer for a missing extension is extensionNotFound
        // ("The framework couldn't discover the app's extension."): its discovery starts from the
        // containing app's bundle, and an extension's bundle contains no extension. So an extension
        // gets that error, and the sync's report, the provider's log and the kit's W1 say why.
        if ExtensionDiagnostics.isExtensionProcess.load(ordering: .relaxed) {
            let warning =
                "\(FrameworkRule.r13): a ContactProviderManager was created inside the extension; it is the app's (Apple: \"Use it in the app, not in the extension\"), and init threw extensionNotFound: signal, enable or reset from the app"
            ExtensionDiagnostics.note(warning)
            StandardError.write("warning: \(warning)\n")
            throw ContactProviderError.extensionNotFound
        }
        do {
            manager = try DomainManager(appGroup: appGroup, domainIdentifier: domainIdentifier)
        } catch {
            throw ContactProviderError(code: error.code)
        }
    }

    /// The domain this manager manages.
    public var domain: any ContactProviderDomain {
        DefaultContactProviderDomain()
    }

    /// Whether the user has enabled the domain (persisted; the same in every process, R4).
    public var isEnabled: Bool {
        manager.isEnabled
    }

    /// Asks the user to enable the domain (R5); returns at once when it already is (R6).
    ///
    /// The user's answer is simulated by `CONTACT_PROVIDER_USER_DECISION`: `deny` throws
    /// `deniedByUser`; anything else (or unset) approves.
    public func enable() async throws {
        if isEnabled { return }
        let manager = self.manager
        try await offload { try manager.enable() }
    }

    /// Disables the domain: every contact it provided is deleted and the extension stops (R8).
    public func disable() async throws {
        let manager = self.manager
        try await offload { try manager.disable() }
    }

    /// Deletes every contact the domain provided and discards sync state; the next invocation
    /// restarts content enumeration at `.initialPage` (R9).
    public func reset() async throws {
        let manager = self.manager
        try await offload { try manager.reset() }
    }

    /// Asks the extension to bring the system up to date (R12). Loads the extension if needed.
    ///
    /// Like on iOS, this is a request: it returns once the extension has been asked, not when the
    /// sync is done. (`contacts-host signal --wait` waits for the sync's report.)
    ///
    /// - Throws: `domainNotRegistered`-style misuse aside, signalling a *disabled* domain throws
    ///   `deniedByUser` (the simulator's documented choice for R7: the user has not enabled it).
    public func signalEnumerator(for collection: ContactItem.Identifier = .rootContainer) async throws {
        let manager = self.manager
        try await offload { try manager.signalEnumerator() }
    }

    /// Asks the extension to terminate, which calls its `invalidate()` (R10).
    public func invalidate() async throws {
        let manager = self.manager
        try await offload { try manager.invalidate() }
    }
}

/// Runs blocking file and pipe work off the cooperative thread pool; a `DomainManagerError` it
/// throws comes out as the `ContactProviderError` of the same code.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(
                with: Result {
                    do { return try work() } catch let error as DomainManagerError {
                        throw ContactProviderError(code: error.code)
                    }
                })
        }
    }
}
