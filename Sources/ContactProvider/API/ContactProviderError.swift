import ContactProviderSystem
import Foundation

/// Errors of the ContactProvider framework (all 11 of Apple's cases, in the SDK's declaration order).
///
/// `errorDescription` is Apple's text, word for word (the framework binary's strings and the
/// cases' documentation pages; FRAMEWORK-RULES.md names each source); `failureReason` is the
/// simulator's explanation of why and what to do.
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

    /// Apple's text for the case ("The framework couldn't discover the app's extension.").
    public var errorDescription: String? { code.errorDescription }

    /// The simulator's explanation: why the error happened here and what to do about it.
    public var failureReason: String? { code.failureReason }

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
