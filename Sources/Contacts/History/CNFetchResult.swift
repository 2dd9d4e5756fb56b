import Foundation

/// The result of a change-history fetch: the value (an `NSEnumerator` of ``CNChangeHistoryEvent``s)
/// and the token of the point in history it reaches (Apple's `CNFetchResult`).
open class CNFetchResult<ValueType: AnyObject>: NSObject, @unchecked Sendable {
    /// The result of the fetch.
    open private(set) var value: ValueType
    /// The point in history the result reaches: save it, and give it as the next request's
    /// `startingToken` to get the changes after it.
    open private(set) var currentHistoryToken: Data

    package init(value: ValueType, currentHistoryToken: Data) {
        self.value = value
        self.currentHistoryToken = currentHistoryToken
    }
}
