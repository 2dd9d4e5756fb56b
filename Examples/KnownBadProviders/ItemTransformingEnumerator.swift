// A flaw that changes items on their way to the system, the same way in content pages and change
// batches: a flaw overrides `transform` only.

import ContactProvider
import Foundation

/// Passes every call on to the correct enumerator, with the items (and deleted identifiers) of each
/// page and batch through the `transform` methods on the way.
open class ItemTransformingEnumerator: ForwardingEnumerator {
    /// The items the system gets instead of `items` (default: unchanged).
    open func transform(_ items: [ContactItem]) -> [ContactItem] { items }

    /// The identifiers the system is told were deleted instead of `identifiers` (default: unchanged).
    open func transform(deleted identifiers: [ContactItem.Identifier]) -> [ContactItem.Identifier] { identifiers }

    /// Forwards, transforming the items.
    open override func enumerateContent(
        in page: ContactItemPage, for observer: any ContactItemContentObserver
    ) async {
        await correct.enumerateContent(in: page, for: TransformingContentObserver(observer, flaw: self))
    }

    /// Forwards, transforming the items and deletions.
    open override func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: TransformingChangeObserver(observer, flaw: self))
    }
}

private final class TransformingContentObserver: ForwardingContentObserver {
    let flaw: ItemTransformingEnumerator

    init(_ next: any ContactItemContentObserver, flaw: ItemTransformingEnumerator) {
        self.flaw = flaw
        super.init(next)
    }

    override func didEnumerate(_ items: [ContactItem]) { next.didEnumerate(flaw.transform(items)) }
}

private final class TransformingChangeObserver: ForwardingChangeObserver {
    let flaw: ItemTransformingEnumerator

    init(_ next: any ContactItemChangeObserver, flaw: ItemTransformingEnumerator) {
        self.flaw = flaw
        super.init(next)
    }

    override func didUpdate(_ items: [ContactItem]) { next.didUpdate(flaw.transform(items)) }
    override func didDelete(_ identifiers: [ContactItem.Identifier]) {
        next.didDelete(flaw.transform(deleted: identifiers))
    }
}
