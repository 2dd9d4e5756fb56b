// Not a bug: a legal design the kit once failed (issue 43, item 11). The provider serves a content
// enumeration from a snapshot (here: the set of generations it has started an enumeration from) and
// lets the snapshot go once it hands the last page over, as a provider whose event log it clears at
// the end of content does. A page of an enumeration it no longer serves is answered with
// `pageExpired`, which makes the system start again from the initial page (R27). The system never
// asks for a page of a finished enumeration, so C5 must pass: the kit repeats each page while its
// enumeration still runs, and accepts `pageExpired` for the last page.

import ContactProvider
import Foundation
import KnownBadProviders

final class SnapshotUntilLastPageEnumerator: ForwardingEnumerator {
    private let lock = NSLock()
    /// The generation markers of the enumerations being served.
    private var serving: Set<Data> = []

    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        if page != .initialPage, !lock.withLock({ serving.contains(page.generationMarker) }) {
            observer.didFinishEnumeratingContentWithError(ContactProviderError.pageExpired)
            return
        }
        await correct.enumerateContent(in: page, for: SnapshotKeeper(observer, owner: self))
    }

    /// Serves `marker`'s enumeration from now on, or (`false`) lets it go.
    func serve(_ marker: Data, _ serve: Bool) {
        lock.withLock {
            if serve { serving.insert(marker) } else { serving.remove(marker) }
        }
    }
}

/// Keeps a generation served while its pages go on, and lets it go with the last page.
private final class SnapshotKeeper: ForwardingContentObserver {
    let owner: SnapshotUntilLastPageEnumerator

    init(_ next: any ContactItemContentObserver, owner: SnapshotUntilLastPageEnumerator) {
        self.owner = owner
        super.init(next)
    }

    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        owner.serve(nextPage.generationMarker, true)
        next.didFinishEnumeratingPage(upTo: nextPage)
    }

    override func didFinishEnumeratingContent(upTo generationMarker: Data) {
        owner.serve(generationMarker, false)
        next.didFinishEnumeratingContent(upTo: generationMarker)
    }
}
