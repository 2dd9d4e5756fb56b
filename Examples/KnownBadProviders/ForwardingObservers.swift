// Observers that pass every call on, so a flaw overrides only the call it gets wrong.

import ContactProvider
import Foundation

/// A change observer that passes every call on to `next`; a flaw overrides the call it breaks.
open class ForwardingChangeObserver: ContactItemChangeObserver {
    /// The observer the calls go to (the system's).
    public let next: any ContactItemChangeObserver

    /// An observer that forwards to `next`.
    public init(_ next: any ContactItemChangeObserver) { self.next = next }

    /// Forwards.
    open func didUpdate(_ items: [ContactItem]) { next.didUpdate(items) }
    /// Forwards.
    open func didDelete(_ identifiers: [ContactItem.Identifier]) { next.didDelete(identifiers) }
    /// Forwards.
    open func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool) {
        next.didFinishEnumeratingChanges(upTo: syncAnchor, moreComing: moreComing)
    }
    /// Forwards.
    open func didFinishEnumeratingChangesWithError(_ error: any Error) {
        next.didFinishEnumeratingChangesWithError(error)
    }
    /// The system's batch size.
    open var suggestedBatchSize: Int { next.suggestedBatchSize }
}

/// A content observer that passes every call on to `next`; a flaw overrides the call it breaks.
open class ForwardingContentObserver: ContactItemContentObserver {
    /// The observer the calls go to (the system's).
    public let next: any ContactItemContentObserver

    /// An observer that forwards to `next`.
    public init(_ next: any ContactItemContentObserver) { self.next = next }

    /// Forwards.
    open func didEnumerate(_ items: [ContactItem]) { next.didEnumerate(items) }
    /// Forwards.
    open func didFinishEnumeratingPage(upTo nextPage: ContactItemPage) { next.didFinishEnumeratingPage(upTo: nextPage) }
    /// Forwards.
    open func didFinishEnumeratingContent(upTo generationMarker: Data) {
        next.didFinishEnumeratingContent(upTo: generationMarker)
    }
    /// Forwards.
    open func didFinishEnumeratingContentWithError(_ error: any Error) {
        next.didFinishEnumeratingContentWithError(error)
    }
    /// The system's page size.
    open var suggestedPageSize: Int { next.suggestedPageSize }
}

/// An enumerator that passes every call on to the correct one, so a flaw overrides only what it breaks.
open class ForwardingEnumerator: ContactItemEnumerator {
    /// The enumerator the calls go to.
    public let correct: any ContactItemEnumerator

    /// An enumerator that forwards to `correct`.
    public init(wrapping correct: any ContactItemEnumerator) { self.correct = correct }

    /// Forwards.
    open func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async {
        await correct.enumerateContent(in: page, for: observer)
    }

    /// Forwards.
    open func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver
    ) async {
        await correct.enumerateChanges(startingAt: syncAnchor, for: observer)
    }

    /// Forwards.
    open func invalidate() async { await correct.invalidate() }
}
