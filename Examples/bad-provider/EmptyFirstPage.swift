// Not a bug: a legal design (issue 43's "correct providers of unusual but legal designs"). The
// provider answers the initial page with no contacts, only the page to ask for next (its snapshot's
// generation marker at offset 0), as a provider that opens a snapshot or a server session on the
// first call and hands contacts over from the second does. An empty page that is not the last is
// legal (R19, R24: the pages' union is the data), so every rule must pass.

import ContactProvider
import Foundation
import KnownBadProviders

final class EmptyFirstPageEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        guard page == .initialPage else { return await correct.enumerateContent(in: page, for: observer) }
        // Open the snapshot: the correct enumerator's first page names its generation marker.
        let opening = SnapshotOpening(suggestedPageSize: observer.suggestedPageSize)
        await correct.enumerateContent(in: page, for: opening)
        switch opening.outcome {
        case .marker(let marker):
            observer.didFinishEnumeratingPage(upTo: ContactItemPage(generationMarker: marker, offset: 0))
        case .error(let error):
            observer.didFinishEnumeratingContentWithError(error)
        case nil:
            observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
        }
    }
}

/// Takes the generation marker of the correct enumerator's first page, and nothing else.
private final class SnapshotOpening: ContactItemContentObserver {
    enum Outcome {
        case marker(Data)
        case error(any Error)
    }

    let suggestedPageSize: Int
    private let lock = NSLock()
    private var recorded: Outcome?

    init(suggestedPageSize: Int) { self.suggestedPageSize = suggestedPageSize }

    var outcome: Outcome? { lock.withLock { recorded } }

    func didEnumerate(_ items: [ContactItem]) {}
    func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        lock.withLock { recorded = .marker(nextPage.generationMarker) }
    }
    func didFinishEnumeratingContent(upTo generationMarker: Data) {
        lock.withLock { recorded = .marker(generationMarker) }
    }
    func didFinishEnumeratingContentWithError(_ error: any Error) { lock.withLock { recorded = .error(error) } }
}
