import AppGroupStore
import Foundation

/// The contact type the kit reads and writes: a contact with Apple's Contacts key names.
public typealias ConformanceContact = ContactRecord

/// Where the provider's data lives, and how the kit edits it "as the host app would".
///
/// Implement it for a provider with its own backend; providers that read the App Group database
/// use ``AppGroupDatabaseBackend``.
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

/// The App Group's contact database (what `contacts-host` edits).
public final class AppGroupDatabaseBackend: ConformanceBackend {
    private let database: AppDatabase

    /// The database of `appGroup`.
    public init(appGroup: AppGroup = .current) {
        database = AppDatabase(appGroup: appGroup)
    }

    public func reset() throws { try database.reset() }
    public func add(_ contact: ConformanceContact) throws { try database.add(contact) }
    /// One group-committed import, then the compaction `contacts-host import` runs after it.
    public func add(contentsOf contacts: [ConformanceContact]) throws {
        try database.upsert(contacts)
        try database.compactIfNeeded()
    }
    public func update(_ contact: ConformanceContact) throws {
        _ = try database.update(contact.identifier) { $0 = contact }
    }
    public func delete(identifier: String) throws { try database.delete([identifier]) }
    public func contacts() throws -> [ConformanceContact] { try database.all() }
}
