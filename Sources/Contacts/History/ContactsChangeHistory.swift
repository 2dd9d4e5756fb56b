import Foundation

/// The simulator's stand-in for the Objective-C wrapper an iOS app writes to read the change
/// history from Swift. It is not Apple's API and iOS has no such type.
///
/// Apple's SDK does not let Swift call `CNContactStore.enumerator(for:)` (here it is marked
/// unavailable, and calling it does not compile). On iOS an app that needs incremental history adds
/// a small Objective-C class calling `enumeratorForChangeHistoryFetchRequest:error:` and returning
/// its `CNFetchResult` (seed 001's `ContactStoreWrapper`). Here the app's Swift code calls this
/// enum where it would call its wrapper; when the app is built for iOS, the wrapper replaces it:
///
/// ```swift
/// let request = CNChangeHistoryFetchRequest()
/// request.startingToken = savedToken
/// let result = try ContactsChangeHistory.enumerator(for: request, in: store)
/// savedToken = result.currentHistoryToken
/// for case let event as CNChangeHistoryEvent in result.value { event.accept(visitor) }
/// ```
public enum ContactsChangeHistory {
    /// What `[store enumeratorForChangeHistoryFetchRequest:request error:&error]` returns: the
    /// events from `request.startingToken` to now, and the token of now.
    ///
    /// - Throws: `CNError.changeHistoryInvalidAnchor` for a token the device did not issue;
    ///   `CNError.authorizationDenied` without access.
    public static func enumerator(for request: CNChangeHistoryFetchRequest, in store: CNContactStore) throws
        -> CNFetchResult<NSEnumerator>
    {
        let (events, token) = try store.changeHistory(request)
        return CNFetchResult(value: NSArray(array: events).objectEnumerator(), currentHistoryToken: token)
    }
}
