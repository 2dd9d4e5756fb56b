import Foundation

/// The `ContactProviderError` cases by name, as the system records and transmits them.
///
/// The system library does not depend on the Apple-shaped module; `ContactProvider` maps its
/// error enum onto these one to one.
public enum ProviderErrorCode: String, Codable, Sendable, CaseIterable {
    case featureNotAvailable
    case deniedByUser
    case extensionNotFound
    case itemsLimitReached
    case cannotEnumerate
    case enumerationTimeout
    case pageExpired
    case changeAnchorExpired
    case extensionInvalidated
    case extensionInvalidateTimeout
    case domainNotRegistered
}

/// The texts of `ContactProviderError`'s cases, declared once here so `contacts-host` (which stays
/// off the Apple-shaped module, ``DomainManager``) prints the same words the app would see.
extension ProviderErrorCode {
    /// `ContactProviderError.errorDescription`: what happened.
    package var errorDescription: String {
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

    /// `ContactProviderError.failureReason`: why, and what to do.
    package var failureReason: String {
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
}

/// Why a sync did not complete.
package enum SyncFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `ContactProviderError` (reported by the provider or raised by the system).
    case provider(ProviderErrorCode, message: String)
    /// The provider passed some other error to a `…WithError` call.
    case providerReported(String)
    /// The provider broke a numbered rule of the framework (see FRAMEWORK-RULES.md).
    case ruleViolation(FrameworkRule, message: String)
    /// The domain is disabled; the system does not run the extension (R7).
    case domainDisabled
    /// The system could not read or write its files.
    case storage(String)

    package var description: String {
        switch self {
        case .provider(let code, let message): return "ContactProviderError.\(code.rawValue): \(message)"
        case .providerReported(let message): return "the provider reported an error: \(message)"
        case .ruleViolation(let rule, let message): return "rule \(rule) violated: \(message)"
        case .domainDisabled: return "the domain is disabled; run 'contacts-host enable' first (R7)"
        case .storage(let message): return message
        }
    }

    /// The rule when this is a rule violation.
    package var rule: FrameworkRule? {
        if case .ruleViolation(let rule, _) = self { return rule }
        return nil
    }
}
