import Foundation

/// The app's own address book: the JSON database in the App Group that the host app edits
/// and its extension reads.
///
/// Every change is one journal entry, so an add, update or delete costs O(1) in the size of
/// the database, and `changes(after:)` answers in O(changes). See ``JournaledStore``.
package final class AppDatabase {
    /// The underlying store.
    package let store: JournaledStore<NoMetadata>
    /// The contact lines the last ``upsert(count:batchSize:progress:transcode:record:)`` wrote, for
    /// the ``compactIfNeeded()`` that follows it (``WrittenContactLines``).
    private var written = WrittenContactLines.none

    /// The contact lines the last import wrote, as it noted them: what ``compactIfNeeded()`` folds
    /// without reading them again, until it has run.
    package var writtenLines: WrittenContactLines { written }

    /// The database of `appGroup`; its store keeps `derivedIndexes` current whenever it writes a
    /// snapshot (see ``JournaledStore/derivedIndexes``; `ContactSearch` opens it with its name index).
    package init(appGroup: AppGroup = .current, derivedIndexes: [SearchIndex] = []) {
        store = JournaledStore(
            directory: appGroup.contactsDirectory, derivedIndexes: derivedIndexes, retainsPreviousJournal: true)
    }

    /// Adds a contact. A missing identifier gets a new UUID; a given one must not exist yet.
    ///
    /// Every write here knows how it changes the number of contacts (a new one, an update of one it
    /// found, deletes of ones it found), so each entry carries the live count and `status` or
    /// `signal` read the journal's last line, not the journal (issue 44).
    @discardableResult
    package func add(_ record: ContactRecord) throws -> ContactRecord {
        var record = IdentifierRules.normalized(record)
        if record.identifier.isEmpty {
            record.identifier = UUID().uuidString
            _ = try store.write { try $0.append(upsert: [record], liveCountChange: 1) }
            return record
        }
        try IdentifierRules.validate(record.identifier)
        try store.write { writer in
            if try writer.lookup(record.identifier) != nil {
                throw StoreError.duplicateIdentifier(record.identifier)
            }
            try writer.append(upsert: [record], liveCountChange: 1)
        }
        return record
    }

    /// Changes an existing contact; throws `notFound` when there is none.
    @discardableResult
    package func update(_ identifier: String, _ change: (inout ContactRecord) throws -> Void) throws -> ContactRecord {
        let identifier = IdentifierRules.normalized(identifier)
        return try store.write { writer in
            guard var record = try writer.lookup(identifier) else { throw StoreError.notFound(identifier: identifier) }
            try change(&record)
            record.identifier = identifier
            try writer.append(upsert: [record], liveCountChange: 0)
            return record
        }
    }

    /// Deletes contacts in one journal entry: one write and one `fdatasync` for all of them, so a
    /// crash or a full disk deletes all or none. Throws `notFound` (deleting nothing) if any
    /// identifier is unknown.
    package func delete(_ identifiers: [String]) throws {
        var seen = Set<String>()
        let unique = identifiers.map(IdentifierRules.normalized).filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return }
        try store.write { writer in
            // A few ids: one lookup each. Many: one identifiers-only load, not one journal scan per id.
            if unique.count <= 8 {
                for identifier in unique where try writer.lookup(identifier) == nil {
                    throw StoreError.notFound(identifier: identifier)
                }
            } else {
                let existing = try writer.identifiers()
                for identifier in unique where !existing.contains(identifier) {
                    throw StoreError.notFound(identifier: identifier)
                }
            }
            try writer.append(delete: unique, liveCountChange: -unique.count)
        }
    }

    /// The contact with `identifier`, or nil.
    package func get(_ identifier: String) throws -> ContactRecord? {
        try store.lookup(identifier)
    }

    /// Every contact, in the database's stable order.
    package func all() throws -> [ContactRecord] {
        try store.load().contacts
    }

    /// Every contact, in ``all()``'s order, decoded one at a time (see
    /// ``JournaledStore/forEachContact(count:_:)``): memory holds the journal's changes and one
    /// contact, not the address book (`export`, `list`, issue 44). `count` is told first.
    package func forEachContact(count: (Int) -> Void = { _ in }, _ body: (ContactRecord) throws -> Void) throws {
        try store.forEachContact(count: count, body)
    }

    /// Adds or replaces many contacts (one journal entry each, so each is one change for providers).
    ///
    /// - Returns: how many were added and how many replaced an existing contact.
    @discardableResult
    package func upsert(_ records: [ContactRecord], progress: ((Int) -> Void)? = nil) throws -> (
        added: Int, updated: Int
    ) {
        for record in records where !record.identifier.isEmpty {
            try IdentifierRules.validate(record.identifier)
        }
        return try upsert(count: records.count, progress: progress) { records[$0] }
    }

    /// Adds or replaces `count` contacts, asking `record(i)` for each in turn: a caller that decodes
    /// them one by one (an import) never holds them all. They are written in batches of
    /// `batchSize`, each made durable with one `fdatasync` (group commit), so a crash or a full disk
    /// leaves a prefix of whole contacts and `PartialImport` says how many.
    ///
    /// An invalid identifier stops the import there (the contacts before it stay written, and
    /// `PartialImport` says so); check identifiers first to refuse such input as a whole.
    ///
    /// `transcode`, when given, is asked first for each contact: it may copy the contact's JSON into
    /// the batch (`ContactBatch.transcode`) and answer its identifier, and `record` is then not asked
    /// for that contact (an import copies each contact instead of decoding and encoding it).
    @discardableResult
    package func upsert(
        count: Int, batchSize: Int = 8192, progress: ((Int) -> Void)? = nil,
        transcode: ((Int, inout ContactBatch) -> String?)? = nil, record: (Int) throws -> ContactRecord
    ) throws -> (added: Int, updated: Int) {
        var added = 0
        var updated = 0
        var written = 0
        // Where each copied contact's line goes, for the compaction that usually follows an import.
        var lines = WrittenContactLines(isRecording: transcode != nil)
        self.written = .none
        do {
            try store.write { writer in
                // Only which identifiers exist matters here: do not decode the whole address book. Read
                // under the lock, so whether each contact is new is exact: its line carries the live count.
                let existing = try writer.identifiers()
                // An import into an empty database (the usual first one) asks it nothing: a debug
                // build copies the whole state for each `contains`, and looks the identifier up in
                // two unspecialized dictionaries, once per contact.
                let hasExisting = existing.count > 0
                var seen = Set<String>()
                seen.reserveCapacity(count)
                var batch = ContactBatch(
                    capacity: min(batchSize, count), derivingKeysFor: lines.isRecording ? store.derivedIndexes : nil)
                // Unwrapped once: a debug build copies an optional closure (a retain, and a release
                // after the call) at each `if let`, once per contact.
                let copies = transcode != nil
                let copy = transcode ?? { _, _ in nil }
                for index in 0..<count {
                    if copies, let identifier = copy(index, &batch) {
                        // ASCII and not empty (what `ContactTranscoder` copies): already normalized.
                        try IdentifierRules.validate(identifier)
                        // `if`s, not `&&`: its right side is a closure, which in a debug build
                        // captures a copy of `existing` (the whole state) for every contact.
                        var isNew = true
                        if hasExisting { isNew = !existing.contains(identifier) }
                        if isNew { isNew = seen.insert(identifier).inserted }
                        if isNew { added += 1 } else { updated += 1 }
                        batch.appendTranscoded(isNew: isNew, identifier: identifier)
                    } else {
                        var next = IdentifierRules.normalized(try record(index))
                        if next.identifier.isEmpty {
                            next.identifier = UUID().uuidString
                        } else {
                            try IdentifierRules.validate(next.identifier)
                        }
                        var isNew = true
                        if hasExisting { isNew = !existing.contains(next.identifier) }
                        if isNew { isNew = seen.insert(next.identifier).inserted }
                        if isNew { added += 1 } else { updated += 1 }
                        batch.append(next, isNew: isNew)
                    }
                    if batch.count == batchSize || index == count - 1 {
                        // One entry per contact (providers count changes by seq), one write and one
                        // fdatasync per batch.
                        do {
                            try writer.appendEach(batch, noting: &lines)
                            written += batch.count
                        } catch {
                            // The batch did not fit (a full disk): write it one contact at a time, so
                            // the import stops with every contact that fits saved, and says how many.
                            // Each durable: a writeback hole must stay where readers look for one (JournalHoles).
                            lines.abandon()
                            var position = 0
                            while position < batch.count {
                                try writer.append(
                                    upsert: [try batch.decodedRecord(at: position)],
                                    liveCountChange: batch.added[position] ? 1 : 0)
                                written += 1
                                position += 1
                            }
                        }
                        batch.removeAll()
                        progress?(written)
                    }
                }
                try writer.sync()
                lines.adopt(batch.takeNotes())
            }
            self.written = lines
        } catch let error where written > 0 {
            // The first `written` contacts are whole lines in the journal: make them durable and say so,
            // so the user knows what the database holds (a full disk stops an import part-way).
            let durable = (try? store.write { try $0.sync() }) != nil
            throw PartialImport(written: written, total: count, durable: durable, underlying: error)
        }
        return (added, updated)
    }

    /// An import that stopped part-way: `written` of `total` contacts are in the database.
    package struct PartialImport: Error, CustomStringConvertible {
        /// Contacts written (the first `written` of the input, in order).
        package let written: Int
        /// Contacts in the input.
        package let total: Int
        /// Whether the written ones were flushed to disk after the failure.
        package let durable: Bool
        /// What stopped it.
        package let underlying: Error

        package var description: String {
            if written == total {
                return "all \(total) contacts were written but flushing them to disk failed: \(underlying)"
            }
            return
                "\(written) of \(total) contacts were written (the first \(written) of the file; they are in the database"
                + (durable ? "" : ", not yet flushed to disk") + "), the rest were not: \(underlying)"
        }
    }

    /// Replaces the whole database with `records` in one atomic write (a new generation: every
    /// provider anchor expires and the next sync is a full content enumeration).
    package func replaceAll(with records: [ContactRecord]) throws {
        for record in records { try IdentifierRules.validate(record.identifier) }
        try store.replaceAll(with: records)
    }

    /// Empties the database and starts a new generation (every provider anchor expires).
    package func reset() throws {
        try store.reset()
    }

    /// Folds the journal into the snapshot when it has grown past it.
    @discardableResult
    package func compactIfNeeded() throws -> Bool {
        // The lines the last import wrote are folded as it noted them (the compaction checks they
        // are still those lines); any later compaction reads every line.
        defer { written = .none }
        return try store.compactIfNeeded(written: written)
    }
}
