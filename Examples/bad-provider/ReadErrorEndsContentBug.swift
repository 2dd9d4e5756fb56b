// The bug: a read of the store that fails in the middle of a content enumeration ends the enumeration
// as a success, with the pages read so far (`didFinishEnumeratingContent(upTo:)`), as a provider
// does that takes "no more to read" from a loop that stops on any error. The system then holds only
// the pages before the failure: it drops every contact of the later pages, and no change sync brings
// them back, since none of them changed. A failing first page, which has no marker yet, is passed on
// as it is. Caught by T1, the store failing between two content pages (issue 43, class 5).

import ContactProvider
import Foundation
import KnownBadProviders

final class ReadErrorEndsContentEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        let forward: any ContactItemContentObserver =
            page == .initialPage ? observer : ErrorEndsContent(observer, marker: page.generationMarker)
        await correct.enumerateContent(in: page, for: forward)
    }
}

/// Ends the content enumeration at the page's marker instead of failing the page.
private final class ErrorEndsContent: ForwardingContentObserver {
    let marker: Data

    init(_ next: any ContactItemContentObserver, marker: Data) {
        self.marker = marker
        super.init(next)
    }

    override func didFinishEnumeratingContentWithError(_ error: any Error) {
        // An expiry still restarts content; any other error is taken for the end of the data.
        if let expiry = error as? ContactProviderError, expiry == .pageExpired {
            return next.didFinishEnumeratingContentWithError(error)
        }
        next.didFinishEnumeratingContent(upTo: marker)
    }
}
