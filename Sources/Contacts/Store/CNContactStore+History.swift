import Foundation

// The device's change history, as Apple's SDK lets Swift code read it.
extension CNContactStore {
    /// The point the device's contacts history has reached now: give it as a
    /// `CNChangeHistoryFetchRequest.startingToken` to get the changes after it. (When fetching, use
    /// the token of the `CNFetchResult` instead, as Apple's documentation says: it is the point that
    /// fetch reached.) Nil when the device's stores cannot be read.
    public var currentHistoryToken: Data? {
        try? ChangeHistoryReader(appGroup: appGroup).currentToken().encoded()
    }

    /// Apple's change history enumerator, which Swift cannot call: Apple's SDK refines
    /// `enumeratorForChangeHistoryFetchRequest:error:` away from Swift, so iOS apps call it from an
    /// Objective-C wrapper. The simulator stands for that wrapper with
    /// ``ContactsChangeHistory/enumerator(for:in:)``.
    @available(
        *, unavailable,
        message:
            "Apple's SDK does not let Swift call the change history enumerator: call enumeratorForChangeHistoryFetchRequest:error: from your app's Objective-C wrapper, which the simulator stands for with ContactsChangeHistory.enumerator(for:in:)"
    )
    public func enumerator(for request: CNChangeHistoryFetchRequest) throws -> CNFetchResult<NSEnumerator> {
        fatalError("unavailable in Swift")
    }

    /// The events from `request.startingToken` to now, and the token of now.
    func changeHistory(_ request: CNChangeHistoryFetchRequest) throws -> (
        events: [CNChangeHistoryEvent], token: Data
    ) {
        let visible = try readableContactIdentifiers()
        let (events, token) = try ChangeHistoryReader(appGroup: appGroup).read(request, visible: visible)
        return (events, token.encoded())
    }
}
