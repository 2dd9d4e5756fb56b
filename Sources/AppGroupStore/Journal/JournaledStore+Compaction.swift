import Foundation
import Glibc

// Compaction: folding the journal into a new snapshot, and writing snapshots and journals.
extension JournaledStore {
    /// Compacts when the journal has grown past the snapshot (and past `minimumJournalBytes`).
    @discardableResult
    package func compactIfNeeded(minimumJournalBytes: Int = 256 * 1024) throws -> Bool {
        var snapshotInfo = stat()
        var journalInfo = stat()
        guard stat(journalPath, &journalInfo) == 0 else { return false }
        let snapshotSize = stat(snapshotPath, &snapshotInfo) == 0 ? Int(snapshotInfo.st_size) : 0
        let journalSize = Int(journalInfo.st_size)
        guard journalSize > max(snapshotSize, minimumJournalBytes) else { return false }
        MemoryTrim.returnFreeMemory()
        try compact()
        MemoryTrim.returnFreeMemory()
        return true
    }

    /// Where a contact's line comes from when compaction writes the new snapshot.
    private enum CompactedLine {
        case snapshot(Range<Int>)
        case journal(Range<Int>)
        case encoded(Data)
    }

    /// Folds the journal into a new snapshot with a new generation (anchors at the head stay valid).
    ///
    /// It keeps each contact as the byte range of its JSON in the snapshot or the journal, not as a
    /// decoded value, and streams the new snapshot to disk: memory stays near the number of
    /// contacts, not the size of the decoded address book, and contacts are copied, not re-encoded.
    package func compact() throws {
        try withLock(.exclusive) {
            guard let snapshot = try openSnapshot() else { return }
            let (header, headerEnd) = try parseHeader(snapshot)
            let encoder = LineCoding.encoder()
            let decoder = JSONDecoder()
            var lines: [String: CompactedLine] = [:]
            lines.reserveCapacity(header.count)
            var snapshotLines = LineCursor(snapshot, path: snapshotPath, from: headerEnd, lineNumber: 2)
            var walked = 0
            while let line = snapshotLines.next() {
                walked += 1
                if walked % 65536 == 0 { snapshot.dropResidentPages() }
                let identifier = try snapshotLines.decoding {
                    try decodeRecord(decoder, snapshot, line, retain: false).identifier
                }
                lines[identifier] = .snapshot(line)
            }
            var headSeq = header.baseSeq
            var meta = header.meta
            let journal = try MappedFile.openIfPresent(journalPath)
            if let journal, let start = try journalHeaderEnd(journal, snapshot: header) {
                var journalLines = LineCursor(journal, path: journalPath, from: start, lineNumber: nil)
                var dropped = start
                while let range = journalLines.next() {
                    let position = range.lowerBound
                    if position - dropped > 16 << 20 {
                        journal.dropResidentPages()
                        dropped = position
                    }
                    let seq: Int
                    let line = UnsafeRawBufferPointer(rebasing: journal.bytes[range])
                    if let ranges = JournalLineCodec.fastRanges(line, metaType: Meta.self) {
                        seq = ranges.seq
                        guard seq == headSeq + 1 else {
                            throw journalLines.malformed("sequence number \(seq) does not follow \(headSeq)")
                        }
                        for item in ranges.upsert {
                            lines[item.identifier] = .journal(
                                (position + item.range.lowerBound)..<(position + item.range.upperBound))
                        }
                        for identifier in ranges.delete { lines[identifier] = nil }
                        if let entryMeta = ranges.meta { meta = entryMeta }
                    } else {
                        let entry = try journalLines.decoding {
                            try decoder.decode(JournalEntry<Meta>.self, from: journal.data(range))
                        }
                        seq = entry.seq
                        guard seq == headSeq + 1 else {
                            throw journalLines.malformed("sequence number \(seq) does not follow \(headSeq)")
                        }
                        for record in entry.upsert ?? [] {
                            lines[record.identifier] = .encoded(try ContactRecordCodec.encode(record))
                        }
                        for identifier in entry.delete ?? [] { lines[identifier] = nil }
                        if let entryMeta = entry.meta { meta = entryMeta }
                    }
                    headSeq = seq
                }
            }
            let generation = UUID().uuidString
            let identifiers = lines.keys.sorted(by: IdentifierOrder.precedes)
            let newHeader = SnapshotHeader(
                format: StoreFormat.version, kind: "snapshot", generation: generation,
                previousGeneration: header.generation, baseSeq: headSeq, count: identifiers.count, meta: meta)
            SecureFile.sweepTemporaryFiles(in: directory)
            try SecureFile.replace(snapshotPath) { fd, temp in
                var buffer = try encoder.encode(newHeader)
                buffer.append(UInt8(ascii: "\n"))
                var written = 0
                for identifier in identifiers {
                    switch lines[identifier]! {
                    case .snapshot(let range): snapshot.append(range, to: &buffer)
                    case .journal(let range): journal?.append(range, to: &buffer)
                    case .encoded(let data): buffer.append(data)
                    }
                    buffer.append(UInt8(ascii: "\n"))
                    if buffer.count > 1 << 20 {
                        try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
                        buffer.removeAll(keepingCapacity: true)
                        written += 1
                        // Contacts are copied in identifier order, mostly sequential in both files.
                        if written % 16 == 0 {
                            snapshot.dropResidentPages()
                            journal?.dropResidentPages()
                        }
                    }
                }
                try SecureFile.writeAll(fd: fd, path: temp, data: buffer)
            }
            try writeEmptyJournal(generation: generation, baseSeq: headSeq)
        }
    }

    func currentHeadUnlocked() throws -> Int {
        guard let header = try readSnapshotHeader() else { return 0 }
        guard let journal = try MappedFile.openIfPresent(journalPath),
            let start = try journalHeaderEnd(journal, snapshot: header)
        else { return header.baseSeq }
        return try headSeq(journal, start: start, baseSeq: header.baseSeq)
    }

    func writeSnapshot(
        generation: String, previousGeneration: String?, replacedGeneration: String? = nil, baseSeq: Int,
        records: [ContactRecord], meta: Meta?
    ) throws {
        try SecureFile.ensureDirectory(directory)
        SecureFile.sweepTemporaryFiles(in: directory)
        let header = SnapshotHeader(
            format: StoreFormat.version, kind: "snapshot", generation: generation,
            previousGeneration: previousGeneration, replacedGeneration: replacedGeneration, baseSeq: baseSeq,
            count: records.count, meta: meta)
        var bytes = [UInt8](try LineCoding.encoder().encode(header))
        bytes.append(UInt8(ascii: "\n"))
        bytes.reserveCapacity(bytes.count + records.count * 200)
        for record in records {
            try ContactRecordCodec.encode(record, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        try SecureFile.replace(snapshotPath, with: Data(bytes))
    }

    func writeEmptyJournal(generation: String, baseSeq: Int) throws {
        let header = JournalHeader(
            format: StoreFormat.version, kind: "journal", generation: generation, baseSeq: baseSeq)
        try SecureFile.replace(journalPath, with: try LineCoding.encodeLine(header))
    }
}
