import ContactProviderSystem
import Foundation

/// Errors of the ContactProvider framework (all 11 of Apple's cases, in the SDK's declaration order).
///
/// `errorCode` values are simulator-specific: Apple does not document them (rule R46). They are
/// stable across releases of this package.
public enum ContactProviderError: Error, LocalizedError, CustomNSError, Equatable, Hashable, Sendable {
    /// The framework could not discover the app's extension.
    case extensionNotFound
    /// The domain holds the maximum number of items.
    case itemsLimitReached
    /// The extension is unable to enumerate.
    case cannotEnumerate
    /// The page expired: the system drops its cached contacts and restarts content enumeration.
    case pageExpired
    /// The change anchor expired: the system drops its cached contacts and restarts content enumeration.
    case changeAnchorExpired
    /// The feature is not available (e.g. on this platform).
    case featureNotAvailable
    /// The user denied the action (`enable()` was declined).
    case deniedByUser
    /// A page or batch took longer than the system allows.
    case enumerationTimeout
    /// The extension was invalidated while enumerating.
    case extensionInvalidated
    /// The extension's `invalidate()` took too long.
    case extensionInvalidateTimeout
    /// The domain has not been registered.
    case domainNotRegistered

    /// The case's position in the SDK's declaration order, from 0.
    ///
    /// Apple's type implements `errorCode` itself but documents no values (R46). The one order the
    /// SDK gives is its declaration order (extensionNotFound … domainNotRegistered, which differs from
    /// the documentation's topic order), and counting from 0 is what Swift gives any enum error as its
    /// code (`(error as NSError).code` of a native Swift enum), so this is the numbering with evidence
    /// behind it; match cases, not numbers, in portable code.
    public var errorCode: Int {
        switch self {
        case .extensionNotFound: return 0
        case .itemsLimitReached: return 1
        case .cannotEnumerate: return 2
        case .pageExpired: return 3
        case .changeAnchorExpired: return 4
        case .featureNotAvailable: return 5
        case .deniedByUser: return 6
        case .enumerationTimeout: return 7
        case .extensionInvalidated: return 8
        case .extensionInvalidateTimeout: return 9
        case .domainNotRegistered: return 10
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
