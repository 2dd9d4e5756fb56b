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
/// The parameters are plain, non-`Sendable` values, exactly as Apple's SDK declares them (no
/// `sending`), so what compiles here compiles in Xcode and the other way round: the class shape of
/// Apple's samples works in both language modes, and an `actor` enumerator is refused in Swift 6 mode
/// with Xcode's own error ("non-Sendable parameter type … cannot be sent from caller of protocol
/// requirement … into actor-isolated implementation"). An enumerator that needs an actor's protection
/// keeps its state in one and stays a class itself.
public protocol ContactItemEnumerator {
    /// Enumerates one page of content; ends with exactly one of the observer's `didFinish…` calls
    /// before returning.
    func enumerateContent(in page: ContactItemPage, for observer: any ContactItemContentObserver) async
    /// Enumerates one batch of changes after `syncAnchor`; ends with
    /// `didFinishEnumeratingChanges(upTo:moreComing:)` or `didFinishEnumeratingChangesWithError(_:)`.
    func enumerateChanges(
        startingAt syncAnchor: ContactItemSyncAnchor, for observer: any ContactItemChangeObserver) async
    /// Called before the system terminates the extension.
    func invalidate() async
}

/// The system's receiver of content pages.
///
/// Not `Sendable`, as on iOS: Apple declares it as a plain `protocol ContactItemContentObserver`
/// with no inherited protocols (its documentation page lists no "Inherits From", where
/// `Sendable`-refining protocols list it; the SDK dump at onestack.dev agrees). Requiring
/// `Sendable` would also break observers written for tests as plain classes.
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
