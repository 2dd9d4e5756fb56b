import AppGroupStore
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
    private let domainIdentifier: String
    private let client: SystemClient

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
        guard domainIdentifier == DefaultContactProviderDomain.identifier else {
            throw ContactProviderError.domainNotRegistered
        }
        self.domainIdentifier = domainIdentifier
        do {
            client = try SystemClient(appGroup: appGroup, domain: domainIdentifier)
            // R4: "registers the default domain if needed".
            try client.paths.ensureDirectories()
        } catch {
            throw ContactProviderError.featureNotAvailable
        }
        guard ExtensionDiscovery.executable(configured: try? client.configuration().extensionPath) != nil else {
            throw ContactProviderError.extensionNotFound
        }
    }

    /// The domain this manager manages.
    public var domain: any ContactProviderDomain {
        DefaultContactProviderDomain()
    }

    /// Whether the user has enabled the domain (persisted; the same in every process, R4).
    public var isEnabled: Bool {
        client.isEnabled
    }

    /// Asks the user to enable the domain (R5); returns at once when it already is (R6).
    ///
    /// The user's answer is simulated by `CONTACT_PROVIDER_USER_DECISION`: `deny` throws
    /// `deniedByUser`; anything else (or unset) approves.
    public func enable() async throws {
        if isEnabled { return }
        if ProcessInfo.processInfo.environment["CONTACT_PROVIDER_USER_DECISION"] == "deny" {
            throw ContactProviderError.deniedByUser
        }
        let client = self.client
        try await offload {
            let registered = try client.configuration().extensionPath
            try client.enable(extensionPath: registered ?? ExtensionDiscovery.executable(configured: nil))
        }
    }

    /// Disables the domain: every contact it provided is deleted and the extension stops (R8).
    public func disable() async throws {
        let client = self.client
        try await offload { try client.disable() }
    }

    /// Deletes every contact the domain provided and discards sync state; the next invocation
    /// restarts content enumeration at `.initialPage` (R9).
    public func reset() async throws {
        let client = self.client
        try await offload { try client.reset() }
    }

    /// Asks the extension to bring the system up to date (R12). Loads the extension if needed.
    ///
    /// Like on iOS, this is a request: it returns once the extension has been asked, not when the
    /// sync is done. (`contacts-host signal --wait` waits for the sync's report.)
    ///
    /// - Throws: `domainNotRegistered`-style misuse aside, signalling a *disabled* domain throws
    ///   `deniedByUser` (the simulator's documented choice for R7: the user has not enabled it).
    public func signalEnumerator(for collection: ContactItem.Identifier = .rootContainer) async throws {
        let client = self.client
        try await offload {
            do {
                _ = try client.signal(wait: false, extensionPath: ExtensionDiscovery.executable(configured: nil))
            } catch SystemClient.ClientError.domainDisabled {
                throw ContactProviderError.deniedByUser
            } catch SystemClient.ClientError.noExtension {
                throw ContactProviderError.extensionNotFound
            }
        }
    }

    /// Asks the extension to terminate, which calls its `invalidate()` (R10).
    public func invalidate() async throws {
        let client = self.client
        try await offload {
            if let reply = try client.invalidate(), let error = reply.error, let code = error.code,
                let known = ProviderErrorCode(rawValue: code)
            {
                throw ContactProviderError(code: known)
            }
        }
    }
}

/// Runs blocking file and pipe work off the cooperative thread pool.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// Finds the provider executable the system should launch.
package enum ExtensionDiscovery {
    /// The environment variable naming a provider executable.
    package static let environmentVariable = "CONTACT_PROVIDER_EXTENSION"
    /// The default provider's executable name, built with this package.
    package static let defaultExecutableName = "demo-provider"

    /// The registered path if usable, else `$CONTACT_PROVIDER_EXTENSION`, else `demo-provider`
    /// beside the running executable.
    package static func executable(configured: String?) -> String? {
        if let configured, access(configured, X_OK) == 0 { return configured }
        if let fromEnvironment = ProcessInfo.processInfo.environment[environmentVariable], !fromEnvironment.isEmpty,
            access(fromEnvironment, X_OK) == 0
        {
            return AppGroup(path: fromEnvironment).path
        }
        let directory = (executablePath() as NSString).deletingLastPathComponent
        let sibling = directory + "/" + defaultExecutableName
        return access(sibling, X_OK) == 0 ? sibling : nil
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
