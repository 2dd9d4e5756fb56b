// The bug: each content page says the next one starts one item early (`offset + count - 1`, an off
// by one where the next offset is computed from the index of the page's last item), so every page
// after the first begins again with the last item of the page before. Nothing is lost (the pages
// still add up to the data), but the system receives that item twice. Caught by C3 (issue 43, item 8).

import ContactProvider
import Foundation
import KnownBadProviders

final class RepeatsLastItemEnumerator: ForwardingEnumerator {
    override func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: OneShortObserver(observer))
    }
}

private final class OneShortObserver: ForwardingContentObserver {
    override func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) {
        // The bug: the offset of the page's last item, not of the item after it.
        next.didFinishEnumeratingPage(
            upTo: ContactItemPage(generationMarker: nextPage.generationMarker, offset: nextPage.offset - 1))
    }
}
