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
///
/// `errorDescription` is Apple's text, word for word (issue 40): the three strings in
/// `ContactProvider.framework`'s binary, and each other case's one-line summary on its
/// documentation page (``appleTextSource`` names which, and FRAMEWORK-RULES.md lists them,
/// ``appleTextsMarkdown``). The simulator's explanation is ``failureReason``, beside it.
extension ProviderErrorCode {
    /// `ContactProviderError.errorDescription`: Apple's text for the case.
    package var errorDescription: String {
        switch self {
        case .featureNotAvailable: return "The extension can't run because the feature isn't available."
        case .deniedByUser: return "The person using the app denied the action."
        case .extensionNotFound: return "The framework couldn't discover the app's extension."
        case .itemsLimitReached: return "Limit of items has been reached."
        case .cannotEnumerate: return "The extension is unable to enumerate."
        case .enumerationTimeout: return "The extension enumeration timed out."
        case .pageExpired: return "The page expired and is no longer valid."
        case .changeAnchorExpired: return "The change anchor expired and is no longer valid."
        case .extensionInvalidated:
            return "The app invalidated the extension while it was enumerating content or changes."
        case .extensionInvalidateTimeout: return "The extension invalidate operation timed out."
        case .domainNotRegistered: return "The domain has not been registered."
        }
    }

    /// Where ``errorDescription``'s words come from: a C string of the framework binary (as the
    /// binary spells it, straight apostrophes; iOS 18.0's 22.0 binary said "cannot"/"could not",
    /// the wording since 25.0 is the one on the pages) or the case's documentation page.
    package var appleTextSource: String {
        let page = "developer.apple.com/documentation/contactprovider/contactprovidererror/\(rawValue.lowercased())"
        switch self {
        case .featureNotAvailable, .extensionNotFound, .extensionInvalidated:
            return "ContactProvider.framework C string (25.0 and later) and the summary of \(page)"
        default:
            return "the summary of \(page)"
        }
    }

    /// The table of Apple's texts in FRAMEWORK-RULES.md ("Apple's own texts"), rendered from the
    /// declaration so the document cannot drift from the code.
    package static var appleTextsMarkdown: String {
        let rows = allCases.map { code in
            "| `\(code.rawValue)` | \(code.errorDescription) | \(code.appleTextSource) |"
        }
        return (["| case | `errorDescription` | source |", "|---|---|---|"] + rows).joined(separator: "\n") + "\n"
    }

    /// `ContactProviderError.failureReason`: the simulator's explanation, why and what to do. Apple's
    /// type implements `failureReason` too, but its texts are not public (no string in the binary
    /// or on the pages), so this is where the simulator speaks.
    package var failureReason: String {
        switch self {
        case .featureNotAvailable: return "Contact providers are not available on this platform."
        case .deniedByUser: return "The user did not enable the contact provider: the enable request was declined."
        case .extensionNotFound:
            return
                "No provider executable is registered for the domain; use 'contacts-host enable --extension PATH'."
        case .itemsLimitReached:
            return "The domain holds the maximum number of contacts (domain.json itemsLimit was exceeded)."
        case .cannotEnumerate:
            return "The extension reported that it cannot enumerate."
        case .enumerationTimeout:
            return "A page or batch exceeded the system's time limit (domain.json pageTimeoutSeconds)."
        case .pageExpired: return "The system discards its cached contacts and restarts a content enumeration."
        case .changeAnchorExpired: return "The system discards its cached contacts and restarts a content enumeration."
        case .extensionInvalidated: return "The app called invalidate(), disable() or reset() during an enumeration."
        case .extensionInvalidateTimeout:
            return "invalidate() exceeded the system's time limit (domain.json invalidateTimeoutSeconds)."
        case .domainNotRegistered: return "Only the default domain (DefaultContactProviderDomain) can be used (R3)."
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
