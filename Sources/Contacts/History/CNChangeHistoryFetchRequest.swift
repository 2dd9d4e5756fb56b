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
    /// The transaction authors whose changes to leave out: the names your app gives its saves in
    /// `CNSaveRequest.transactionAuthor`, so it does not process again what it saved itself.
    ///
    /// A save's author is recorded with each change it commits; names are compared exactly (case
    /// and all). Changes with no author (a save that named none, `contacts-host device` without
    /// `--transaction-author`, and every Contact Provider sync) are never left out. Apple documents
    /// no more than that; where it is silent the simulated device chooses, and says so:
    ///
    /// - An excluded author's changes are taken as known: a contact, group or membership that only
    ///   excluded authors changed since the token gives no event.
    /// - One that another author changed too gives one event, coalesced from just before that
    ///   author's first change to now, with the contact as it is now. So when your app ("App",
    ///   excluded) adds a contact and its widget then edits it, the fetch gives an update; when the
    ///   widget adds it and the app edits it, an add (holding the app's edit); when the widget adds
    ///   it and the app deletes it, nothing; when the app adds it and the widget deletes it, a delete.
    /// - Without a ``startingToken`` nothing is left out: the drop-everything event is followed by
    ///   an add for every contact, whoever saved it.
    open var excludedTransactionAuthors: [String]?

    /// A request for every change since the beginning (no `startingToken`).
    public override init() {
        super.init()
    }
}
