import ContactProvider
import ContactProviderSystem
import Foundation
import TestSupport
import Testing

/// Issue 40: every `ContactProviderError` reads as on iOS. Its `errorDescription` is Apple's text, word
/// for word; the simulator's explanation is its `failureReason`, beside it, never in its place.
@Suite("Apple's own words: ContactProviderError's texts are Apple's, the simulator explains beside them")
struct AppleWordsTests {
    /// Apple's texts, copied from the sources FRAMEWORK-RULES.md names (the framework binary's C strings
    /// for three cases, each other case's documentation page summary), kept here as a literal table so
    /// a change to the declaration must be a change to this test too.
    static let apples: [(ContactProviderError, String)] = [
        (.extensionNotFound, "The framework couldn't discover the app's extension."),
        (.itemsLimitReached, "Limit of items has been reached."),
        (.cannotEnumerate, "The extension is unable to enumerate."),
        (.pageExpired, "The page expired and is no longer valid."),
        (.changeAnchorExpired, "The change anchor expired and is no longer valid."),
        (.featureNotAvailable, "The extension can't run because the feature isn't available."),
        (.deniedByUser, "The person using the app denied the action."),
        (.enumerationTimeout, "The extension enumeration timed out."),
        (.extensionInvalidated, "The app invalidated the extension while it was enumerating content or changes."),
        (.extensionInvalidateTimeout, "The extension invalidate operation timed out."),
        (.domainNotRegistered, "The domain has not been registered."),
    ]

    @Test("every case's errorDescription is Apple's text, and NSError's localizedDescription carries it")
    func descriptionsAreApples() {
        #expect(Self.apples.count == 11)
        for (error, text) in Self.apples {
            #expect(error.errorDescription == text, "\(error)")
            #expect((error as NSError).localizedDescription == text, "\(error)")
            #expect(error.errorUserInfo[NSLocalizedDescriptionKey] as? String == text, "\(error)")
        }
    }

    @Test("every case's failureReason is the simulator's own explanation, different from Apple's text")
    func explanationsBeside() {
        for (error, text) in Self.apples {
            let reason = error.failureReason ?? ""
            #expect(!reason.isEmpty, "\(error)")
            #expect(reason != text, "\(error)")
            #expect(error.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String == reason, "\(error)")
        }
        // The one that tells the developer what to run names the command.
        #expect(ContactProviderError.extensionNotFound.failureReason?.contains("contacts-host enable") == true)
    }

    @Test("the host prints Apple's text and then the simulator's explanation (DomainManagerError)")
    func hostMessages() {
        for code in ProviderErrorCode.allCases {
            let error = DomainManagerError(code)
            // The Apple-shaped case and the host's code share their names.
            let expected = Self.apples.first { "\($0.0)" == code.rawValue }?.1
            #expect(expected != nil, "\(code)")
            #expect(error.errorDescription == expected, "\(code)")
            #expect(error.failureReason == code.failureReason)
        }
    }

    @Test("FRAMEWORK-RULES.md lists every text with its source, rendered from the declaration")
    func rulesDocumentNamesTheSources() throws {
        let document = try String(
            contentsOfFile: PythonTestTools.repositoryRoot + "/FRAMEWORK-RULES.md", encoding: .utf8)
        #expect(document.contains("\n## Apple's own texts\n"))
        #expect(document.contains(ProviderErrorCode.appleTextsMarkdown))
        for code in ProviderErrorCode.allCases {
            #expect(code.appleTextSource.contains("contactprovidererror/\(code.rawValue.lowercased())"))
        }
    }
}
