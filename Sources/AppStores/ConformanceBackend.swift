import AppGroupStore
import Foundation

/// The contact type the kit reads and writes: a contact with Apple's Contacts key names.
public typealias ConformanceContact = ContactRecord

/// Where the provider's data lives, and how the kit edits it "as the host app would".
///
/// Implement it for a provider with its own backend; providers that read the App Group database
/// use ``AppGroupDatabaseBackend``. The same backends are the app's store in `contacts-host`
/// (`enable --backend KIND`): its contact commands edit the store through them, so the host and
/// the kit write a provider's store with one implementation.
public protocol ConformanceBackend: AnyObject {
    /// Empties the data and forgets its history: anchors from before must expire.
    func reset() throws
    /// Adds a contact (its identifier is new).
    func add(_ contact: ConformanceContact) throws
    /// Adds many contacts (their identifiers are new): the size rules (`--contacts N`) fill the
    /// store this way.
    ///
    /// The default adds them one by one; a store that can write many at once (one file write, one
    /// transaction) should, so that filling it with 100,000 contacts takes seconds.
    func add(contentsOf contacts: [ConformanceContact]) throws
    /// Replaces an existing contact's values.
    func update(_ contact: ConformanceContact) throws
    /// Deletes a contact.
    func delete(identifier: String) throws
    /// The data as it is now: what the system must end up with.
    func contacts() throws -> [ConformanceContact]
    /// The part of `contact` this store can hold (both sides are compared through it).
    ///
    /// A store with fewer fields than ``ConformanceContact`` (the seed demo's JSON holds a name, a
    /// phone and an email) returns the contact reduced to them; the default is the contact itself.
    func comparable(_ contact: ConformanceContact) -> ConformanceContact
}

extension ConformanceBackend {
    /// Every field counts.
    public func comparable(_ contact: ConformanceContact) -> ConformanceContact { contact }

    /// One ``add(_:)`` per contact.
    public func add(contentsOf contacts: [ConformanceContact]) throws {
        for contact in contacts { try add(contact) }
    }
}
