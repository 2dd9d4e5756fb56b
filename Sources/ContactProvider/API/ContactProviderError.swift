import ContactProviderSystem
import Foundation

/// Errors of the ContactProvider framework (all 11 of Apple's cases).
///
/// `errorCode` values are simulator-specific: Apple does not document them (rule R46). They are
/// stable across releases of this package.
public enum ContactProviderError: Error, LocalizedError, CustomNSError, Equatable, Hashable, Sendable {
    // Availability errors
    /// The feature is not available (e.g. on this platform).
    case featureNotAvailable
    /// The user denied the action (`enable()` was declined).
    case deniedByUser
    // Configuration errors
    /// The framework could not discover the app's extension.
    case extensionNotFound
    // Capacity errors
    /// The domain holds the maximum number of items.
    case itemsLimitReached
    // Enumeration errors
    /// The extension is unable to enumerate.
    case cannotEnumerate
    /// A page or batch took longer than the system allows.
    case enumerationTimeout
    // Expiration errors
    /// The page expired: the system drops its cached contacts and restarts content enumeration.
    case pageExpired
    /// The change anchor expired: the system drops its cached contacts and restarts content enumeration.
    case changeAnchorExpired
    // Invalidation errors
    /// The extension was invalidated while enumerating.
    case extensionInvalidated
    /// The extension's `invalidate()` took too long.
    case extensionInvalidateTimeout
    /// The domain has not been registered.
    case domainNotRegistered

    /// Simulator-specific codes, in the order of Apple's documentation.
    public var errorCode: Int {
        switch self {
        case .featureNotAvailable: return 1
        case .deniedByUser: return 2
        case .extensionNotFound: return 3
        case .itemsLimitReached: return 4
        case .cannotEnumerate: return 5
        case .enumerationTimeout: return 6
        case .pageExpired: return 7
        case .changeAnchorExpired: return 8
        case .extensionInvalidated: return 9
        case .extensionInvalidateTimeout: return 10
        case .domainNotRegistered: return 11
        }
    }

    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: errorDescription ?? "", NSLocalizedFailureReasonErrorKey: failureReason ?? ""]
    }

    public var errorDescription: String? {
        switch self {
        case .featureNotAvailable: return "Contact providers are not available on this platform."
        case .deniedByUser: return "The user did not enable the contact provider."
        case .extensionNotFound: return "The app's Contact Provider extension could not be found."
        case .itemsLimitReached: return "The contact provider has reached the maximum number of contacts."
        case .cannotEnumerate: return "The Contact Provider extension cannot enumerate its contacts."
        case .enumerationTimeout: return "The Contact Provider extension took too long to enumerate a page or batch."
        case .pageExpired: return "The content page expired."
        case .changeAnchorExpired: return "The change anchor expired."
        case .extensionInvalidated: return "The Contact Provider extension was invalidated while enumerating."
        case .extensionInvalidateTimeout: return "The Contact Provider extension took too long to invalidate."
        case .domainNotRegistered: return "The contact provider domain is not registered."
        }
    }

    public var failureReason: String? {
        switch self {
        case .featureNotAvailable: return "The ContactProvider framework is unavailable."
        case .deniedByUser: return "The enable request was declined."
        case .extensionNotFound:
            return "No provider executable is registered for the domain; use 'contacts-host enable --extension PATH'."
        case .itemsLimitReached: return "The domain's item limit (domain.json itemsLimit) was exceeded."
        case .cannotEnumerate: return "The extension reported that it cannot enumerate."
        case .enumerationTimeout:
            return "A page or batch exceeded the system's time limit (domain.json pageTimeoutSeconds)."
        case .pageExpired: return "The system discards its cached contacts and restarts a content enumeration."
        case .changeAnchorExpired: return "The system discards its cached contacts and restarts a content enumeration."
        case .extensionInvalidated: return "The app called invalidate(), disable() or reset() during an enumeration."
        case .extensionInvalidateTimeout:
            return "invalidate() exceeded the system's time limit (domain.json invalidateTimeoutSeconds)."
        case .domainNotRegistered: return "Only the default domain can be used."
        }
    }

    /// The system library's name for this case.
    var code: ProviderErrorCode {
        switch self {
        case .featureNotAvailable: return .featureNotAvailable
        case .deniedByUser: return .deniedByUser
        case .extensionNotFound: return .extensionNotFound
        case .itemsLimitReached: return .itemsLimitReached
        case .cannotEnumerate: return .cannotEnumerate
        case .enumerationTimeout: return .enumerationTimeout
        case .pageExpired: return .pageExpired
        case .changeAnchorExpired: return .changeAnchorExpired
        case .extensionInvalidated: return .extensionInvalidated
        case .extensionInvalidateTimeout: return .extensionInvalidateTimeout
        case .domainNotRegistered: return .domainNotRegistered
        }
    }

    /// The case for a system library code.
    init(code: ProviderErrorCode) {
        switch code {
        case .featureNotAvailable: self = .featureNotAvailable
        case .deniedByUser: self = .deniedByUser
        case .extensionNotFound: self = .extensionNotFound
        case .itemsLimitReached: self = .itemsLimitReached
        case .cannotEnumerate: self = .cannotEnumerate
        case .enumerationTimeout: self = .enumerationTimeout
        case .pageExpired: self = .pageExpired
        case .changeAnchorExpired: self = .changeAnchorExpired
        case .extensionInvalidated: self = .extensionInvalidated
        case .extensionInvalidateTimeout: self = .extensionInvalidateTimeout
        case .domainNotRegistered: self = .domainNotRegistered
        }
    }
}
