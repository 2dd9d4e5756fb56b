import AppGroupStore
import ContactProviderSystem
import Foundation

/// A domain: the set of contacts an extension provides, with the values that configure it.
public protocol ContactProviderDomain {
    /// The name the system shows for the domain.
    var displayName: String { get }
    /// The domain's identifier.
    var identifier: String { get }
    /// Custom values that configure the extension before enumeration starts.
    var userInfo: [String: Any] { get }
}

/// The default (and, as on iOS 18, the only usable) domain.
public struct DefaultContactProviderDomain: ContactProviderDomain {
    /// The identifier shared by every app's default domain.
    public static let identifier = DomainManager.defaultDomainIdentifier

    /// The app's display name (R14): `CONTACT_PROVIDER_APP_NAME`, else the containing app's
    /// `CFBundleDisplayName` (or `CFBundleName`) when the provider was built from an Xcode project,
    /// else the App Group directory's name.
    public let displayName: String
    /// Empty for the default domain.
    public let userInfo: [String: Any]

    /// The default domain.
    public init() {
        let environment = ProcessInfo.processInfo.environment
        displayName =
            environment["CONTACT_PROVIDER_APP_NAME"]
            ?? ExecutableBundle.containingAppInfo(ofBundle: Bundle.main.bundlePath).flatMap {
                ($0["CFBundleDisplayName"] as? String) ?? ($0["CFBundleName"] as? String)
            }
            ?? (AppGroup.current.path as NSString).lastPathComponent
        userInfo = [:]
    }

    /// `DefaultContactProviderDomain.identifier`.
    public var identifier: String { Self.identifier }
}
