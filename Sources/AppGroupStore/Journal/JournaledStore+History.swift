import Foundation

/// What a store holds now and how it got there from a point in its history (the change history
/// that `CNChangeHistoryFetchRequest` reads): read in one pass over one snapshot and its journal (under
/// the shared lock, or without it while a writer holds it), so the changes and the store's head belong
/// together.
package struct StoreHistory<Meta: Codable & Equatable & Sendable>: Sendable {
    /// One contact's net change since the point: its record now (nil when it is deleted now), and
    /// whether it existed before (so an upsert is an addition or an update).
    package struct Change: Equatable, Sendable {
        /// The contact's identifier.
        package var identifier: String
        /// The contact now; nil when its last change was a delete.
        package var record: ContactRecord?
        /// Whether the contact existed just before its first change by an author the reader did not
        /// exclude (at the point, when no author is excluded).
        package var existedBefore: Bool
    }

    /// The store's meta after an entry that changed it, and whether that entry's author is one the
    /// reader excluded.
    package struct MetaStep: Equatable, Sendable {
        /// The meta after the entry.
        package var meta: Meta?
        /// Whether the entry's author was excluded.
        package var excluded: Bool
    }

    /// The store's generation now.
    package var generation: String
    /// The seq of the store's newest change now.
    package var headSeq: Int
    /// The net changes since the point, in the order the contacts were first changed. A contact
    /// added and deleted again since the point is left out (nothing changed for whoever read it), as
    /// is one that only excluded authors changed (they know of it).
    package var changes: [Change]
    /// The store's meta at the point and now (the device's groups).
    package var metaBefore: Meta?
    /// The store's meta now.
    package var metaNow: Meta?
    /// With excluded authors: each change of the meta since the point, in order, so the reader can
    /// tell the excluded authors' changes from the others' (the device's groups). Empty when no
    /// author is excluded: `metaBefore` and `metaNow` then say everything.
    package var metaSteps: [MetaStep] = []
}

extension JournaledStore {
    /// The net changes after `seq` in `generation`, or nil when the store cannot answer: it is empty,
    /// the generation is neither the current one nor the one it was compacted from (a reset), or
    /// the changes after `seq` were compacted into the snapshot. The caller then starts over
    /// (Apple's drop-everything).
    ///
    /// The entries whose author is in `excludedAuthors` are known to the reader: a contact only they
    /// changed is left out, and one another author changed too is judged from just before that
    /// author's first change (so an excluded author's addition followed by another's edit is an
    /// update). Its record is always the one now.
    ///
    /// Cost: the entries after `seq` are decoded; those before it are not (a binary search finds
    /// where the point is, one line gives the meta then, and a byte scan finds the lines that name a
    /// contact changed since), so a fetch near the head of a long journal decodes a few lines.
    package func history(after seq: Int, in generation: String, excludingAuthors excludedAuthors: Set<String> = [])
        throws -> StoreHistory<Meta>?
    {
        try withLock(.shared) {
            guard let snapshot = try openSnapshot() else { return nil }
            let (header, headerEnd) = try parseHeader(snapshot)
            guard generation == header.generation || generation == header.previousGeneration, seq >= header.baseSeq
            else { return nil }
            var after: [String: Bool] = [:]  // the last mention after seq so far: upsert (true) or delete
            // Each contact an included author changed: whether it existed just before that author's
            // first change (nil: as at the point, which the journal before it or the snapshot says).
            var firstIncluded: [String: Bool?] = [:]
            var metaBefore = header.meta
            var metaNow = header.meta
            var metaSteps: [StoreHistory<Meta>.MetaStep] = []
            var fold = ChangeFold()
            var headSeq = header.baseSeq
            var before: (journal: MappedFile, lines: Range<Int>)?  // the journal's entries up to the point
            if let journal = try openJournalForReading(),
                let start = try journalHeaderEnd(journal, snapshot: header)
            {
                headSeq = try self.headSeq(journal, start: start, baseSeq: header.baseSeq)
                // Entries are contiguous and each line starts with its seq: the first one after the
                // point is found by binary search, and the entries before it are not decoded (but
                // the last with a meta, and those naming a contact changed since: see below).
                let end =
                    try findEntry(journal, from: start, seq: seq + 1, baseSeq: header.baseSeq)
                    ?? completeLinesEnd(journal, from: start)
                before = (journal, start..<end)
                if let meta = try lastMeta(journal, in: start..<end) { metaBefore = meta }
                metaNow = metaBefore
                let decoder = JSONDecoder()
                var lines = LineCursor(journal, path: journalPath, from: end, lineNumber: nil)
                while let line = lines.next() {
                    let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: true) }
                    let excluded = entry.author.map(excludedAuthors.contains) ?? false
                    if let meta = entry.meta, meta != metaNow {
                        metaNow = meta
                        if !excludedAuthors.isEmpty { metaSteps.append(.init(meta: meta, excluded: excluded)) }
                    }
                    func note(_ identifier: String, exists: Bool) {
                        if !excluded, firstIncluded[identifier] == nil {
                            firstIncluded[identifier] = .some(after[identifier])
                        }
                        after[identifier] = exists
                    }
                    for record in entry.upsert ?? [] {
                        note(record.identifier, exists: true)
                        fold.upsert(record)
                    }
                    for identifier in entry.delete ?? [] {
                        note(identifier, exists: false)
                        fold.delete(identifier)
                    }
                }
            }
            guard seq <= headSeq else { return nil }  // a point in the future: not this store's history
            // Whether each contact first changed since the point existed at it: its last mention in the
            // journal up to the point, else the snapshot (binary search).
            let unknown = Set(firstIncluded.filter { $0.value == .some(nil) }.keys)
            let mentioned = try before.map { try lastMentions(of: unknown, in: $0.journal, lines: $0.lines) } ?? [:]
            func existedAtPoint(_ identifier: String) throws -> Bool {
                if let mentioned = mentioned[identifier] { return mentioned }
                return try snapshotLineRange(snapshot, from: headerEnd, identifier: identifier) != nil
            }
            func existedBefore(_ identifier: String) throws -> Bool? {
                guard let first = firstIncluded[identifier] else { return nil }  // only excluded authors
                return try first ?? existedAtPoint(identifier)
            }
            var changes: [StoreHistory<Meta>.Change] = []
            for record in fold.updated {
                guard let existed = try existedBefore(record.identifier) else { continue }
                changes.append(.init(identifier: record.identifier, record: record, existedBefore: existed))
            }
            for identifier in fold.deleted where try existedBefore(identifier) == true {
                changes.append(.init(identifier: identifier, record: nil, existedBefore: true))
            }
            return StoreHistory(
                generation: header.generation, headSeq: headSeq, changes: changes, metaBefore: metaBefore,
                metaNow: metaNow, metaSteps: metaSteps)
        }
    }

    /// The end of the journal's last complete line (a torn tail is no entry).
    private func completeLinesEnd(_ journal: MappedFile, from start: Int) -> Int {
        var end = journal.size
        while end > start, journal.bytes[end - 1] != 0x0A { end -= 1 }
        return end
    }

    /// The meta of the last entry in `lines` (whole lines) that has one, read backwards from the end:
    /// the device's and the system's stores write one with every entry, so this reads one line.
    private func lastMeta(_ journal: MappedFile, in lines: Range<Int>) throws -> Meta? {
        let decoder = JSONDecoder()
        var cursor = lines.upperBound
        while cursor > lines.lowerBound {
            let lineStart = journal.lineStart(containing: cursor - 1, floor: lines.lowerBound)
            let entry: JournalEntry<Meta>
            do {
                entry = try decodeEntry(decoder, journal, lineStart..<(cursor - 1), retain: false)
            } catch {
                throw StoreError.malformed(
                    path: journalPath, line: journal.countLines(upTo: lineStart) + 1, reason: LineCoding.reason(error))
            }
            if let meta = entry.meta { return meta }
            cursor = lineStart
        }
        return nil
    }

    /// For each of `identifiers`, whether its last mention in `lines` (whole journal lines) is an
    /// upsert (true) or a delete; absent when none mentions it. Only lines whose bytes hold one of the
    /// identifiers (JSON-encoded, as the lines write them) are decoded, so the cost is a byte scan of
    /// the journal per identifier, not a decode of every line.
    private func lastMentions(of identifiers: Set<String>, in journal: MappedFile, lines: Range<Int>) throws
        -> [String: Bool]
    {
        guard !identifiers.isEmpty, !lines.isEmpty, let base = journal.bytes.baseAddress else { return [:] }
        let encoder = LineCoding.encoder()
        var needles: [[UInt8]] = []
        for identifier in identifiers {
            let needle = Array(try encoder.encode(identifier))
            if ByteSearch.contains(base + lines.lowerBound, count: lines.count, needle: needle) {
                needles.append(needle)
            }
        }
        guard !needles.isEmpty else { return [:] }
        var mentions: [String: Bool] = [:]
        let decoder = JSONDecoder()
        var cursor = LineCursor(journal, path: journalPath, from: lines.lowerBound, lineNumber: nil)
        while let line = cursor.next(), line.upperBound < lines.upperBound {
            guard
                needles.contains(where: {
                    ByteSearch.contains(base + line.lowerBound, count: line.count, needle: $0)
                })
            else { continue }
            let entry = try cursor.decoding { try decodeEntry(decoder, journal, line, retain: false) }
            for record in entry.upsert ?? [] where identifiers.contains(record.identifier) {
                mentions[record.identifier] = true
            }
            for identifier in entry.delete ?? [] where identifiers.contains(identifier) { mentions[identifier] = false }
        }
        return mentions
    }
}
