// bad-provider: known-bad providers for the conformance kit's newer rules, one bug per file. The bug
// is chosen by the environment variable BAD_PROVIDER_BUG (the provider inherits the environment of
// `contacts-host conformance`):
//
//   field-loss            FieldLossBug.swift              caught by F1
//   reused-identifier     ReusedIdentifierBug.swift       caught by D8
//   stale-final-anchor    StaleFinalAnchorBug.swift       caught by D10
//   oversized-after-launch OversizedAfterLaunchBug.swift  caught by W1
//   slow-page             SlowPageBug.swift               caught by C1 (enumerationTimeout)
//   anchor-from-now       AnchorFromNowBug.swift          caught by D9
//
// Each wraps the demo provider's correct enumerator and breaks exactly one thing.

import ContactProvider
import ExampleProviders
import Foundation

@main
final class BadProvider: ContactProviderExtension {
    private let rootContainerEnumerator: any ContactItemEnumerator

    required init() {
        let bug = ProcessInfo.processInfo.environment["BAD_PROVIDER_BUG"] ?? ""
        let correct = DemoEnumerator()
        switch bug {
        case "field-loss": rootContainerEnumerator = FieldLossEnumerator(wrapping: correct)
        case "reused-identifier": rootContainerEnumerator = ReusedIdentifierEnumerator(wrapping: correct)
        case "stale-final-anchor": rootContainerEnumerator = StaleFinalAnchorEnumerator(wrapping: correct)
        case "oversized-after-launch": rootContainerEnumerator = OversizedAfterLaunchEnumerator(wrapping: correct)
        case "slow-page": rootContainerEnumerator = SlowPageEnumerator(wrapping: correct)
        case "anchor-from-now": rootContainerEnumerator = AnchorFromNowEnumerator(wrapping: correct)
        default:
            FileHandle.standardError.write(
                Data("bad-provider: set BAD_PROVIDER_BUG (unknown: '\(bug)'); running without a bug\n".utf8))
            rootContainerEnumerator = correct
        }
    }

    func configure(for domain: any ContactProviderDomain) {}

    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator {
        rootContainerEnumerator
    }

    func invalidate() async throws {
        await rootContainerEnumerator.invalidate()
    }
}

/// A change observer that passes every call on; a bug overrides the call it breaks.
class ForwardingChangeObserver: ContactItemChangeObserver {
    let next: any ContactItemChangeObserver

    init(_ next: any ContactItemChangeObserver) { self.next = next }

    func didUpdate(_ items: [ContactItem]) { next.didUpdate(items) }
    func didDelete(_ identifiers: [ContactItem.Identifier]) { next.didDelete(identifiers) }
    func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
    }
    func didFinishEnumeratingChangesWithError(_ error: any Error) { next.didFinishEnumeratingChangesWithError(error) }
    var suggestedBatchSize: Int { next.suggestedBatchSize }
}

/// A content observer that passes every call on; a bug overrides the call it breaks.
class ForwardingContentObserver: ContactItemContentObserver {
    let next: any ContactItemContentObserver

    init(_ next: any ContactItemContentObserver) { self.next = next }

    func didEnumerate(_ items: [ContactItem]) { next.didEnumerate(items) }
    func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) { next.didFinishEnumeratingPage(upTo: nextPage) }
    func didFinishEnumeratingContent(upTo generationMarker: Data) {
        next.didFinishEnumeratingContent(upTo: generationMarker)
    }
    func didFinishEnumeratingContentWithError(_ error: any Error) { next.didFinishEnumeratingContentWithError(error) }
    var suggestedPageSize: Int { next.suggestedPageSize }
}
