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
