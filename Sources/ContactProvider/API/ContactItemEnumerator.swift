import Foundation

/// Supplies enumerators for collections of contact items.
public protocol ContactItemEnumerating {
    /// The enumerator for `collection` (the system passes `.rootContainer`).
    func enumerator(for collection: ContactItem.Identifier) -> any ContactItemEnumerator
}

/// Enumerates a collection's contacts (content, paged) and its changes (from a sync anchor).
///
/// Errors are reported through the observer, never thrown.
///
/// ## Concurrency
/// The observer parameters are `sending` (the system hands each call a fresh observer and never
/// touches it again), so an `actor` can be the enumerator in Swift 6 mode: without it, Swift 6
/// refuses to pass the non-`Sendable` observer into the actor ("non-Sendable parameter type …
/// cannot be sent … into actor-isolated implementation"; measured). Implementations need not
/// write `sending` themselves: the class-based shape of Apple's samples compiles unchanged.
/// `sending` is not in Apple's documented declarations; it is a simulator addition that no
/// conforming code can notice. Code that *calls* an enumerator (a unit test driving it by hand
/// with a mock observer) notices it in Swift 6 mode: a non-`Sendable` observer cannot be read
/// after the call ("sending 'observer' risks causing data races"); make the mock `Sendable`
/// (`final class MockObserver: ContactItemContentObserver, @unchecked Sendable` in a test). That is
/// the trade made for actor enumerators, which extension code written for iOS uses.
public protocol ContactItemEnumerator {
    /// Enumerates one page of content; ends with exactly one of the observer's `didFinish…` calls
    /// before returning.
    func enumerateContent(in page: ContactItemPage, for observer: sending any ContactItemContentObserver) async
    /// Enumerates one batch of changes after `syncAnchor`; ends with
    /// `didFinishEnumeratingChanges(upTo:moreComing:)` or `didFinishEnumeratingChangesWithError(_:)`.
    func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: sending any ContactItemChangeObserver) async
    /// Called before the system terminates the extension.
    func invalidate() async
}

/// The system's receiver of content pages.
///
/// Not `Sendable`, as on iOS: Apple declares it as a plain `protocol ContactItemContentObserver`
/// with no inherited protocols (its documentation page lists no "Inherits From", where
/// `Sendable`-refining protocols list it; the SDK dump at onestack.dev agrees). Requiring
/// `Sendable` would also break observers written for tests as plain classes. An enumerator
/// that is an actor receives it through a `sending` parameter instead (see ``ContactItemEnumerator``).
public protocol ContactItemContentObserver {
    /// Delivers items of the current page (may be called several times per page).
    func didEnumerate(_: [ContactItem])
    /// Ends the page and commits it; call only when more items follow.
    func didFinishEnumeratingPage(upTo nextPage: ContactItemPage)
    /// Ends the content enumeration and commits the last page.
    func didFinishEnumeratingContent(upTo generationMarker: Data)
    /// Ends the content enumeration with an error (`pageExpired` restarts it).
    func didFinishEnumeratingContentWithError(_: any Error)
    /// The suggested upper limit of items in one page.
    var suggestedPageSize: Int { get }
}

/// The system's receiver of change batches.
///
/// Not `Sendable`, as on iOS (same evidence as ``ContactItemContentObserver``).
public protocol ContactItemChangeObserver {
    /// Delivers new and updated items (upserted by identifier).
    func didUpdate(_ items: [ContactItem])
    /// Delivers identifiers of deleted items.
    func didDelete(_ identifiers: [ContactItem.Identifier])
    /// Ends the batch, commits it and records `syncAnchor` as the resume point.
    func didFinishEnumeratingChanges(upTo syncAnchor: ContactItemSyncAnchor, moreComing: Bool)
    /// Ends the change enumeration with an error (`changeAnchorExpired` restarts content enumeration).
    func didFinishEnumeratingChangesWithError(_: any Error)
    /// The suggested upper limit of updates plus deletions in one batch.
    var suggestedBatchSize: Int { get }
}
