import Foundation

/// What change history to fetch: the changes since `startingToken`, as events (Apple's
/// `CNChangeHistoryFetchRequest`).
///
/// Changes to contacts are always returned, coalesced as Apple's are: a contact added and then
/// updated since the token is one add event, one added and deleted again is no event. In Swift the
/// request is executed through the app's Objective-C shim (see ``ContactsChangeHistory``), because
/// `CNContactStore.enumerator(for:)` is unavailable in Swift.
open class CNChangeHistoryFetchRequest: NSObject, @unchecked Sendable {
    /// The point in history to start from: a `CNFetchResult.currentHistoryToken` the app saved.
    /// Nil gives a ``CNChangeHistoryDropEverythingEvent`` followed by an add event for every contact
    /// (and group, with ``includeGroupChanges``).
    open var startingToken: Data?
    /// Whether linked contacts are unified (each contact is its own on the simulated device, so
    /// this changes nothing).
    open var shouldUnifyResults = true
    /// Whether the events' contacts are `CNMutableContact`s.
    open var mutableObjects = false
    /// The keys the events' contacts should hold besides their identifier (every value is fetched
    /// on the simulated device, see `CNContact.isKeyAvailable(_:)`).
    open var additionalContactKeyDescriptors: [any CNKeyDescriptor]?
    /// Whether group changes (groups added, renamed, deleted; members added and removed) are
    /// returned too.
    open var includeGroupChanges = false
    /// The transaction authors whose changes to leave out. The simulated device records no
    /// transaction authors (a save names no author), so nothing is left out.
    open var excludedTransactionAuthors: [String]?

    /// A request for every change since the beginning (no `startingToken`).
    public override init() {
        super.init()
    }
}
