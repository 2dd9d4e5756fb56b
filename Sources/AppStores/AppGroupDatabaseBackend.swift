import AppGroupStore
import Foundation

/// The App Group's contact database (what `contacts-host` edits).
public final class AppGroupDatabaseBackend: ConformanceBackend {
    private let database: AppDatabase
    /// The database's journal: rule T1 leaves an unreadable line at its end for a moment.
    package let journalPath: String
    /// The journal's length before that line was appended (nil: the store is readable).
    package var journalLengthBeforeFailure: UInt64?

    /// The database of `appGroup`.
    public init(appGroup: AppGroup = .current) {
        database = AppDatabase(appGroup: appGroup)
        journalPath = JournalFiles.journal(in: appGroup.contactsDirectory)
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
