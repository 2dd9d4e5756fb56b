import Foundation
import Glibc

/// A derived file beside a store's snapshot that lets a search skip decoding every contact:
/// one line per snapshot contact with the byte offset of its snapshot line and its search keys.
///
/// ```
/// {"format":1,"kind":"search-index","keys":"name-1","generation":"…","snapshotSize":N,"snapshotInode":N,"count":N,"checksum":"…"}
/// <offset> <key> <key> …      one line per snapshot contact, in snapshot order
/// ```
///
/// It holds no data of its own. A store told of it (``JournaledStore/derivedIndexes``) writes it
/// beside every snapshot it writes, in the same pass (a compaction carries the previous index's keys
/// forward for contacts that did not change and derives keys only for changed ones); otherwise the
/// first search of a generation builds it from the snapshot. It is written atomically after the
/// snapshot is durable, and not `fsync`ed: losing it costs a rebuild. It is trusted only when its
/// header names the snapshot's generation, size and inode, its line count and FNV-1a checksum match,
/// and every contact it points at decodes; otherwise it is rebuilt (or, when it cannot be written,
/// used from memory). Contacts the journal changed since the snapshot are read from the journal, and
/// every candidate is checked against the real contact, so an index can make a search faster but
/// never give it a contact that does not match.
package struct SearchIndex: Sendable {
    /// The file name in the store's directory.
    package let fileName: String
    /// Names the key function: a file built with another one is rebuilt.
    package let keysVersion: String
    /// A contact's keys (words without spaces or newlines; such bytes inside a key split it).
    package let keys: @Sendable (ContactRecord) -> [String]
    /// The only fields `keys` reads, when it says so (nil: any field). A compaction then decodes
    /// just these of each contact it indexes (the others are checked, not made).
    package let fields: [ContactRecord.Field]?
    /// Writes a contact's keys as an index line holds them (a space before each key), exactly what
    /// `SearchIndexBuilder.appendKeys` makes of `keys`, without the strings: when given, indexing
    /// uses it (a compaction indexes every contact an import wrote; making each word a `String`, then
    /// reading its bytes back, was a tenth of a debug import).
    package let appendKeys: (@Sendable (ContactRecord, inout [UInt8]) -> Void)?
    /// The keys as a function of a few text fields' values, field by field, when they are that
    /// (``FieldKeys``): a compaction then derives them from each contact's stored JSON without
    /// making a `ContactRecord`.
    package let fieldKeys: FieldKeys?

    /// An index stored as `fileName`, built with `keys` (versioned by `keysVersion`), which reads
    /// only `fields` of a contact (nil: any field); `appendKeys`, when given, writes what `keys` says
    /// the way an index line holds it, and `fieldKeys`, when given, says the same field by field.
    package init(
        fileName: String, keysVersion: String, fields: [ContactRecord.Field]? = nil,
        appendKeys: (@Sendable (ContactRecord, inout [UInt8]) -> Void)? = nil, fieldKeys: FieldKeys? = nil,
        keys: @escaping @Sendable (ContactRecord) -> [String]
    ) {
        self.fileName = fileName
        self.keysVersion = keysVersion
        self.fields = fields
        self.appendKeys = appendKeys
        self.fieldKeys = fieldKeys
        self.keys = keys
    }

    struct Header: Codable, Equatable {
        var format: Int
        var kind: String
        var keys: String
        var generation: String
        var snapshotSize: Int
        var snapshotInode: UInt64
        var count: Int
        var checksum: String
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // An index loop over the pointer, not `for byte in bytes`: a debug build runs that generic
        // iterator, a call per byte of an index of a million contacts.
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return String(hash, radix: 16) }
        let count = bytes.count
        var index = 0
        while index < count {
            hash = (hash ^ UInt64(base[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return String(hash, radix: 16)
    }
}

/// How a search used the index (for tests and the benchmark).
package enum SearchIndexUse: Equatable, Sendable {
    /// The index file was valid and used.
    case used
    /// It was missing, stale or damaged, and was rebuilt (and written, when `written`).
    case rebuilt(written: Bool)
}

extension JournaledStore {
    /// The path of `index`'s file.
    package func path(of index: SearchIndex) -> String { directory + "/" + index.fileName }

    /// The live contacts for which `candidate(keys)` holds and then `matches(contact)` holds, in the
    /// store's order (as `load().contacts`): O(index + journal + matches), not a decode of every contact.
    ///
    /// `candidate` sees a contact's keys line (keys separated by single spaces) and must accept every
    /// contact that `matches` accepts; it may accept more.
    package func search(
        _ index: SearchIndex, candidate: (UnsafeRawBufferPointer) -> Bool, matches: (ContactRecord) -> Bool
    ) throws -> (contacts: [ContactRecord], use: SearchIndexUse) {
        var found: [ContactRecord] = []
        let use = try search(index, candidate: candidate, matches: matches) { found.append($0) }
        return (found, use)
    }

    /// ``search(_:candidate:matches:)``, each match given to `found` as it is decoded (issue 44):
    /// memory holds the journal's contacts and one byte range per candidate, never the matches
    /// decoded together. The candidates are gathered under the lock, and decoded and handed on after
    /// it (a slow reader of the output never holds a writer up), from the snapshot mapped under it (an
    /// immutable file: a compaction meanwhile replaces the name, not the file). An index found wrong
    /// is noticed before the first contact is handed on, so the scan that answers instead never
    /// repeats one.
    package func search(
        _ index: SearchIndex, candidate: (UnsafeRawBufferPointer) -> Bool, matches: (ContactRecord) -> Bool,
        found: (ContactRecord) throws -> Void
    ) throws -> SearchIndexUse {
        guard let gathered = try withLock(.shared, { try gatherCandidates(index, candidate: candidate) }) else {
            // An index that passed its checks but points at something else: answer from a scan.
            try? FileManager.default.removeItem(atPath: path(of: index))
            try forEachContact { if matches($0) { try found($0) } }
            return .rebuilt(written: false)
        }
        for hit in gathered.hits {
            switch hit {
            case .journal(let record):
                if matches(record) { try found(record) }
            case .snapshot(let range):
                guard let snapshot = gathered.snapshot else { continue }
                let record: ContactRecord
                do {
                    record = try ContactRecordCodec.decode(snapshot.bytes, range: range)
                } catch {
                    throw StoreError.malformed(
                        path: snapshotPath, line: Self.lineNumber(of: range.lowerBound, in: snapshot),
                        reason: LineCoding.reason(error))
                }
                if matches(record) { try found(record) }
            }
        }
        return gathered.use
    }

    /// A contact a search may answer, in the store's order: a snapshot line the index made a candidate
    /// (decoded later), or a journal contact (already decoded).
    enum SearchHit {
        case snapshot(Range<Int>)
        case journal(ContactRecord)
    }

    /// The candidates of a search, in the store's order, and the snapshot they are lines of; nil when
    /// the index points somewhere no line starts (then nothing was handed on yet). The caller holds the lock.
    private func gatherCandidates(_ index: SearchIndex, candidate: (UnsafeRawBufferPointer) -> Bool) throws
        -> (hits: [SearchHit], snapshot: MappedFile?, use: SearchIndexUse)?
    {
        guard let snapshot = try openSnapshot() else { return ([], nil, .used) }
        let (header, headerEnd) = try parseHeader(snapshot)
        var use = SearchIndexUse.used
        let body: (file: MappedFile?, data: Data?, start: Int)
        if let verified = try? verifiedIndex(index, snapshot: snapshot, header: header) {
            body = (verified.file, nil, verified.start)
        } else {
            let built = try buildIndex(index, snapshot: snapshot, header: header, headerEnd: headerEnd)
            body = (nil, built.body, 0)
            use = .rebuilt(written: built.written)
        }
        // The journal's contacts: their latest values, which snapshot lines they replace, and the
        // order in which new ones were first added (as StoreState orders them).
        var latest: [String: ContactRecord?] = [:]
        var added: [String] = []
        var replacedLines: [Int: String] = [:]
        var looked = Set<String>()
        var inSnapshot = Set<String>()
        var addedOnce = Set<String>()
        if let journal = try openJournalForReading(),
            let start = try journalHeaderEnd(journal, snapshot: header)
        {
            let decoder = JSONDecoder()
            var lines = LineCursor(journal, path: journalPath, from: start, lineNumber: 2)
            var seq = header.baseSeq
            while let line = lines.next() {
                let entry = try lines.decoding { try decodeEntry(decoder, journal, line, retain: true) }
                guard entry.seq == seq + 1 else {
                    throw lines.malformed("sequence number \(entry.seq) does not follow \(seq)")
                }
                seq = entry.seq
                func lookUp(_ identifier: String) throws {
                    guard looked.insert(identifier).inserted else { return }
                    if let line = try snapshotLine(snapshot, from: headerEnd, identifier: identifier) {
                        replacedLines[line] = identifier
                        inSnapshot.insert(identifier)
                    }
                }
                // Upserts before deletes, as StoreState applies an entry.
                for record in entry.upsert ?? [] {
                    try lookUp(record.identifier)
                    if !inSnapshot.contains(record.identifier), addedOnce.insert(record.identifier).inserted {
                        added.append(record.identifier)
                    }
                    latest[record.identifier] = record
                }
                for identifier in entry.delete ?? [] {
                    try lookUp(identifier)
                    latest[identifier] = .some(nil)
                }
            }
        }
        var hits: [SearchHit] = []
        var damaged = false
        func scanBody(_ bytes: UnsafeRawBufferPointer) {
            var position = body.start
            while position < bytes.count, !damaged {
                guard let newline = memchr(bytes.baseAddress! + position, 0x0A, bytes.count - position) else {
                    break
                }
                let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(newline))
                var line = 0
                var cursor = position
                while cursor < end, bytes[cursor] != 0x20 {
                    line = line &* 10 &+ Int(bytes[cursor] &- 0x30)
                    cursor += 1
                }
                let keys = UnsafeRawBufferPointer(rebasing: bytes[min(cursor + 1, end)..<end])
                if let identifier = replacedLines[line] {
                    if let record = latest[identifier] ?? nil { hits.append(.journal(record)) }
                } else if candidate(keys) {
                    // The index points at a line start of this snapshot, or it is not to be believed.
                    guard line >= headerEnd, line < snapshot.size, snapshot.bytes[line - 1] == 0x0A,
                        let lineEnd = snapshot.newline(from: line)
                    else {
                        damaged = true
                        return
                    }
                    hits.append(.snapshot(line..<lineEnd))
                }
                position = end + 1
            }
        }
        if let file = body.file {
            scanBody(file.bytes)
        } else if let data = body.data {
            data.withUnsafeBytes { scanBody($0) }
        }
        if damaged { return nil }
        for identifier in added {
            if let record = latest[identifier] ?? nil { hits.append(.journal(record)) }
        }
        return (hits, snapshot, use)
    }

    /// Whether `index`'s file, if present, is damaged for the current snapshot (a stale one, of
    /// another generation, is not damage: the next search rebuilds it). For `doctor`.
    package func indexProblem(_ index: SearchIndex) throws -> String? {
        try withLock(.shared) {
            guard FileManager.default.fileExists(atPath: path(of: index)), let snapshot = try openSnapshot() else {
                return nil
            }
            let (header, _) = try parseHeader(snapshot)
            do {
                _ = try verifiedIndex(index, snapshot: snapshot, header: header)
                return nil
            } catch IndexRejection.stale {
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    enum IndexRejection: Error, CustomStringConvertible {
        case stale
        case damaged(String)

        var description: String {
            switch self {
            case .stale: return "built for another snapshot"
            case .damaged(let reason): return reason
            }
        }
    }

    /// The index file and where its body starts, if it is exactly the index of this snapshot.
    func verifiedIndex(_ index: SearchIndex, snapshot: MappedFile, header: SnapshotHeader<Meta>) throws
        -> (file: MappedFile, start: Int)
    {
        guard let file = try MappedFile.openIfPresent(path(of: index)) else { throw IndexRejection.stale }
        guard let headerEnd = file.newline(from: 0),
            let stored = try? JSONDecoder().decode(SearchIndex.Header.self, from: file.data(0..<headerEnd))
        else { throw IndexRejection.damaged("a derived search index with an unreadable header") }
        guard stored.generation == header.generation, stored.snapshotSize == snapshot.size,
            stored.snapshotInode == snapshot.inode, stored.keys == index.keysVersion, stored.format == 1,
            stored.kind == "search-index"
        else { throw IndexRejection.stale }
        let body = UnsafeRawBufferPointer(rebasing: file.bytes[(headerEnd + 1)...])
        var lines = 0
        for byte in body where byte == 0x0A { lines += 1 }
        guard lines == stored.count, stored.count == header.count, body.last.map({ $0 == 0x0A }) ?? true,
            SearchIndex.checksum(body) == stored.checksum
        else {
            throw IndexRejection.damaged(
                "a derived search index whose lines or checksum do not match its header")
        }
        return (file, headerEnd + 1)
    }

    /// Builds the index from the snapshot and tries to write it (a read-only App Group keeps it in memory).
    private func buildIndex(
        _ index: SearchIndex, snapshot: MappedFile, header: SnapshotHeader<Meta>, headerEnd: Int
    ) throws -> (body: Data, written: Bool) {
        var builder = SearchIndexBuilder(index: index, expectedCount: header.count)
        var offset = headerEnd
        var lineNumber = 1
        while offset < snapshot.size {
            lineNumber += 1
            guard let end = snapshot.newline(from: offset) else {
                throw StoreError.malformed(path: snapshotPath, line: lineNumber, reason: "truncated line (no newline)")
            }
            let record: ContactRecord
            do {
                record = try ContactRecordCodec.decode(snapshot.bytes, range: offset..<end)
            } catch {
                throw StoreError.malformed(path: snapshotPath, line: lineNumber, reason: LineCoding.reason(error))
            }
            builder.append(offset: offset, record: record)
            offset = end + 1
        }
        let (file, body) = builder.file(
            generation: header.generation, snapshotSize: snapshot.size, snapshotInode: snapshot.inode)
        // Derived data: not fsync'ed (a crash leaves an index that fails its checks and is rebuilt).
        let written = (try? SecureFile.replace(path(of: index), with: file, durable: false)) != nil
        return (body, written)
    }
}
