// The flaw: a batch that delivered changes says `moreComing: true` but hands back the anchor it
// started from, so the system asks for the same batch again, forever. Breaks R40; caught by the
// kit's rule D4.

import ContactProvider
import Foundation

/// Wraps a correct enumerator and, after any batch that delivered changes, finishes with
/// `moreComing: true` at the anchor the batch started from instead of the advanced one.
///
/// Breaks R40 ("`moreComing: true` must come with an advanced anchor"); the conformance kit's
/// rule D4 catches it. Content enumeration and empty batches are the correct enumerator's.
public final class StuckMoreComingEnumerator: ForwardingEnumerator {
    public override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: StuckAnchorObserver(observer, start: syncAnchor))
    }
}

/// Rewrites only the batch's end, and only when the batch delivered something.
private final class StuckAnchorObserver: ForwardingChangeObserver {
    let start: ContactItemSyncAnchor
    var deliveredChanges = false

    init(_ next: any ContactItemChangeObserver, start: ContactItemSyncAnchor) {
        self.start = start
        super.init(next)
    }

    override func didUpdate(_ items: [ContactItem]) {
        deliveredChanges = deliveredChanges || !items.isEmpty
        next.didUpdate(items)
    }

    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        deliveredChanges = deliveredChanges || !identifiers.isEmpty
        next.didDelete(identifiers)
    }

    override func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        guard deliveredChanges else {
            return next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
        }
        next.didFinishEnumeratingChanges(upTo: start, moreComing: true)
    }
}
