import Foundation

/// Content pages read straight from a store's files: O(page size + new journal lines) per page,
/// never O(address book), so the first page of a million-contact store is as quick as any other.
///
/// Pages mean exactly what `StoreState.page(from:limit:)` means for the same store (the same
/// positions, holes and `isLast`): position `k` below the snapshot's count is the snapshot's line
/// `k`; later positions are the identifiers the journal added, in the order it first mentions them.
/// The journal is kept as an overlay (the latest value or deletion of each identifier it names),
/// extended by the lines appended since the last page. Sequential pages resume from a cursor
/// (line index → byte offset), so each reads only its own lines.
final class ContentPager<Meta: Codable & Equatable & Sendable> {
    private let store: JournaledStore<Meta>

    private enum Change {
        case value(ContactRecord)
        case deleted
    }

    private var generation = ""
    private var snapshotFile: MappedFile?
    /// The pages of `snapshotFile` the pages read so far went through: the mapping serves the whole
    /// enumeration, so it would otherwise end up holding all of the file.
    private var pagesBehind = MappedFile.PagesBehindReader(stride: 8 << 20)
    private var journalInode: UInt64 = 0
    private var journalOffset = 0
    private var headSeq = 0
    private var overlay: [String: Change] = [:]
    private var inSnapshot: [String: Bool] = [:]
    private var appended: [String] = []
    private var cursor: (index: Int, byte: Int)?

    init(store: JournaledStore<Meta>) {
        self.store = store
    }

    /// One page: the live contacts from position `offset` on (at most `limit`), the position after
    /// the last one consumed, whether no live contact follows, and the store's generation and head.
    struct Page {
        var contacts: [ContactRecord]
        var nextOffset: Int
        var isLast: Bool
        var generation: String
        var headSeq: Int
    }

    func page(from offset: Int, limit: Int) throws -> Page {
        try store.withLock(.shared) {
            let reusable = snapshotFile.flatMap { store.isCurrentSnapshot($0) ? $0 : nil }
            guard let snapshot = try reusable ?? store.openSnapshot() else {
                forget()
                return Page(contacts: [], nextOffset: max(offset, 0), isLast: true, generation: "", headSeq: 0)
            }
            let (header, headerEnd) = try store.parseHeader(snapshot)
            if header.generation != generation {
                forget()
                generation = header.generation
            }
            if snapshot !== snapshotFile { pagesBehind = MappedFile.PagesBehindReader(stride: pagesBehind.stride) }
            snapshotFile = snapshot
            try readJournal(header: header, snapshot: snapshot, headerEnd: headerEnd)
            return try readPage(
                snapshot, header: header, headerEnd: headerEnd, from: max(offset, 0), limit: max(limit, 1))
        }
    }

    private func forget() {
        generation = ""
        snapshotFile = nil
        journalInode = 0
        journalOffset = 0
        headSeq = 0
        overlay = [:]
        inSnapshot = [:]
        appended = []
        cursor = nil
    }

    /// Brings the overlay up to the journal's last complete line.
    private func readJournal(header: SnapshotHeader<Meta>, snapshot: MappedFile, headerEnd: Int) throws {
        guard let journal = try store.openJournalForReading(),
            let start = try store.journalHeaderEnd(journal, snapshot: header)
        else {
            overlay = [:]
            inSnapshot = [:]
            appended = []
            journalOffset = 0
            headSeq = header.baseSeq
            return
        }
        var offset = journalOffset
        if journal.inode != journalInode || journalOffset < start || journal.size < journalOffset {
            overlay = [:]
            inSnapshot = [:]
            appended = []
            headSeq = header.baseSeq
            offset = start
        }
        let decoder = JSONDecoder()
        var lines = LineCursor(journal, path: store.journalPath, from: offset, lineNumber: nil)
        while let line = lines.next() {
            let entry = try lines.decoding { try store.decodeEntry(decoder, journal, line, retain: true) }
            guard entry.seq == headSeq + 1 else {
                throw lines.malformed("sequence number \(entry.seq) does not follow \(headSeq)")
            }
            for record in entry.upsert ?? [] {
                if inSnapshot[record.identifier] == nil {
                    let known = try store.binarySearchSnapshot(snapshot, from: headerEnd, for: record.identifier) != nil
                    inSnapshot[record.identifier] = known
                    if !known { appended.append(record.identifier) }
                }
                overlay[record.identifier] = .value(record)
            }
            for identifier in entry.delete ?? [] { overlay[identifier] = .deleted }
            headSeq = entry.seq
        }
        journalInode = journal.inode
        journalOffset = lines.offset
    }

    private func readPage(
        _ snapshot: MappedFile, header: SnapshotHeader<Meta>, headerEnd: Int, from offset: Int, limit: Int
    ) throws -> Page {
        let count = header.count
        var contacts: [ContactRecord] = []
        contacts.reserveCapacity(min(limit, 4096))
        var index = offset
        var byte = try byteOffset(ofLine: min(index, count), snapshot, headerEnd: headerEnd, count: count)
        let decoder = JSONDecoder()
        var ends: [Int] = []
        while index < count, contacts.count < limit {
            // The lines the page still needs (more come when some turn out deleted) are copied in one
            // piece, which their records share as their bytes.
            ends.removeAll(keepingCapacity: true)
            let start = byte
            var next = byte
            while ends.count < min(count - index, limit - contacts.count) {
                guard let end = snapshot.newline(from: next) else {
                    throw StoreError.malformed(
                        path: store.snapshotPath, line: index + ends.count + 2, reason: "truncated line (no newline)")
                }
                ends.append(end)
                next = end + 1
            }
            let piece = [UInt8](UnsafeRawBufferPointer(rebasing: snapshot.bytes[start..<next]))
            try piece.withUnsafeBytes { copied in
                for end in ends {
                    let record: ContactRecord
                    do {
                        record = try pagedRecord(
                            (byte - start)..<(end - start), of: piece, copied, at: start, in: snapshot, decoder)
                    } catch {
                        throw StoreError.malformed(
                            path: store.snapshotPath, line: index + 2, reason: LineCoding.reason(error))
                    }
                    // Asked only when the journal changed something: hashing every identifier of a
                    // full sync against an empty overlay was 3% of it.
                    switch overlay.isEmpty ? nil : overlay[record.identifier] {
                    case .value(let newer): contacts.append(newer)
                    case .deleted: break
                    case nil: contacts.append(record)
                    }
                    index += 1
                    byte = end + 1
                }
            }
        }
        cursor = (min(index, count), byte)
        pagesBehind.reached(byte, in: snapshot)
        // Past the last counted line the file must end: more lines would never be paged.
        if index >= count, byte < snapshot.size {
            throw StoreError.malformed(
                path: store.snapshotPath, line: count + 2,
                reason: "header says \(count) contacts but the file holds more")
        }
        while index - count < appended.count, contacts.count < limit {
            if case .value(let record) = overlay[appended[index - count]] { contacts.append(record) }
            index += 1
        }
        return Page(
            contacts: contacts, nextOffset: index,
            isLast: try !anyLive(from: index, snapshot, count: count, byte: byte), generation: generation,
            headSeq: headSeq)
    }

    /// The record of the line at `line` in `piece` (the snapshot's bytes from `start`, `copied`
    /// its memory): it keeps its bytes as a slice of the piece, and decodes its fields only if
    /// someone reads them (a full sync writes the bytes to the system's journal as they are when the
    /// provider hands the records on unchanged). A line the fast path leaves goes to Foundation, which
    /// decodes it or throws its error.
    private func pagedRecord(
        _ line: Range<Int>, of piece: [UInt8], _ copied: UnsafeRawBufferPointer, at start: Int,
        in snapshot: MappedFile, _ decoder: JSONDecoder
    ) throws -> ContactRecord {
        let bytes = UnsafeRawBufferPointer(rebasing: copied[line])
        if let record = ContactRecordCodec.deferringRecord(bytes, keeping: VerbatimJSON(sharing: piece[line])) {
            return record
        }
        return try store.decodeRecord(
            decoder, snapshot, (line.lowerBound + start)..<(line.upperBound + start), retain: true)
    }

    /// Whether a live contact has a position at or after `index` (`byte`: where line `index` starts).
    private func anyLive(from index: Int, _ snapshot: MappedFile, count: Int, byte: Int) throws -> Bool {
        if index < count {
            guard let end = snapshot.newline(from: byte) else { return true }
            let next = try store.decodeRecord(JSONDecoder(), snapshot, byte..<end, retain: false).identifier
            // Snapshot lines are sorted: a deleted snapshot contact lies at or after `index` when
            // its identifier does not precede the one on line `index`.
            let deletedAfter = overlay.reduce(into: 0) { total, item in
                if case .deleted = item.value, inSnapshot[item.key] == true, !IdentifierOrder.precedes(item.key, next) {
                    total += 1
                }
            }
            if count - index > deletedAfter { return true }
        }
        let start = max(index - count, 0)
        guard start < appended.count else { return false }
        return appended[start...].contains { if case .value = overlay[$0] { return true } else { return false } }
    }

    /// The byte offset where snapshot line `index` (0-based, after the header) starts.
    private func byteOffset(ofLine index: Int, _ snapshot: MappedFile, headerEnd: Int, count: Int) throws -> Int {
        var (line, byte) = (0, headerEnd)
        if let cursor, cursor.index <= index { (line, byte) = cursor }
        while line < index {
            guard let end = snapshot.newline(from: byte) else {
                throw StoreError.malformed(
                    path: store.snapshotPath, line: line + 2,
                    reason: "header says \(count) contacts but the file holds \(line)")
            }
            byte = end + 1
            line += 1
        }
        return byte
    }
}
