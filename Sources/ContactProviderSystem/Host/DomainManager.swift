import AppGroupStore
import Foundation
import Glibc

/// What `ContactProviderManager` does, below the Apple-shaped module: enable, disable, reset,
/// signal and invalidate one domain of an App Group, failing with the framework's error codes.
///
/// `ContactProviderManager` is this type behind Apple's names and async shapes (the bridge maps
/// ``DomainManagerError`` onto `ContactProviderError` one to one). `contacts-host` uses this type
/// directly: it stays off the Apple-shaped modules, which re-export FoundationNetworking, so that
/// its commands do not load libcurl at start-up (issue 27, `docs/startup-profile.md`).
///
/// Every call blocks on files and FIFOs; callers on the cooperative pool run it on a thread.
package final class DomainManager: Sendable {
    /// The domain every App Group has (and the only one the simulator registers, R3).
    package static let defaultDomainIdentifier = "defaultDomain"

    /// The domain's files and pipes.
    package let client: SystemClient

    /// A manager for `domainIdentifier` in `appGroup`.
    ///
    /// - Throws: `domainNotRegistered` for any domain but the default one (R3, as observed on
    ///   iOS 18); `featureNotAvailable` when the domain's directories cannot be made;
    ///   `extensionNotFound` when no provider executable is registered or discoverable (R2).
    package init(appGroup: AppGroup, domainIdentifier: String = defaultDomainIdentifier) throws(DomainManagerError) {
        guard domainIdentifier == Self.defaultDomainIdentifier else {
            throw DomainManagerError(.domainNotRegistered)
        }
        do {
            client = try SystemClient(appGroup: appGroup, domain: domainIdentifier)
            // R4: "registers the default domain if needed".
            try client.paths.ensureDirectories()
        } catch {
            throw DomainManagerError(.featureNotAvailable)
        }
        guard ExtensionDiscovery.executable(configured: try? client.configuration().extensionPath) != nil else {
            throw DomainManagerError(.extensionNotFound)
        }
    }

    /// Whether the user has enabled the domain (persisted; the same in every process, R4).
    package var isEnabled: Bool { client.isEnabled }

    /// Enables the domain (R5); returns at once when it already is (R6). The user's answer is
    /// `CONTACT_PROVIDER_USER_DECISION`: `deny` throws `deniedByUser`.
    package func enable() throws {
        if isEnabled { return }
        if EnvironmentVariable.value("CONTACT_PROVIDER_USER_DECISION") == "deny" {
            throw DomainManagerError(.deniedByUser)
        }
        let registered = try client.configuration().extensionPath
        try client.enable(extensionPath: registered ?? ExtensionDiscovery.executable(configured: nil))
    }

    /// Disables the domain: every contact it provided is deleted and the extension stops (R8).
    package func disable() throws { try client.disable() }

    /// Empties the system store and discards sync state (R9).
    package func reset() throws { try client.reset() }

    /// Rings the extension's doorbell, launching it if needed (R12); returns once it was asked.
    /// A disabled domain throws `deniedByUser` (the simulator's documented choice for R7).
    package func signalEnumerator() throws {
        do {
            _ = try client.signal(wait: false, extensionPath: ExtensionDiscovery.executable(configured: nil))
        } catch SystemClient.ClientError.domainDisabled {
            throw DomainManagerError(.deniedByUser)
        } catch SystemClient.ClientError.noExtension {
            throw DomainManagerError(.extensionNotFound)
        }
    }

    /// Asks the extension to terminate (its `invalidate()`, R10); an error it reports is thrown.
    package func invalidate() throws {
        if let reply = try client.invalidate(), let error = reply.error, let code = error.code,
            let known = ProviderErrorCode(rawValue: code)
        {
            throw DomainManagerError(known)
        }
    }
}

/// A ``DomainManager`` call failed with one of the framework's error codes; its text is
/// `ContactProviderError`'s (``ProviderErrorCode/errorDescription`` and ``ProviderErrorCode/failureReason``).
package struct DomainManagerError: Error, LocalizedError, Equatable {
    /// The `ContactProviderError` case.
    package let code: ProviderErrorCode

    package init(_ code: ProviderErrorCode) { self.code = code }

    package var errorDescription: String? { code.errorDescription }
    package var failureReason: String? { code.failureReason }
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
        if let fromEnvironment = EnvironmentVariable.value(environmentVariable), !fromEnvironment.isEmpty,
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
