import Foundation
import Glibc

/// The body of a ``SearchIndex`` file, built one snapshot line at a time (in snapshot order) by
/// whoever reads or writes that snapshot: a search that rebuilds it, or a compaction or
/// `replaceAll` that writes a new snapshot and its index in the same pass.
struct SearchIndexBuilder {
    let index: SearchIndex
    /// Bytes in an array (Data's append is several times slower per call), one Data at the end.
    private(set) var body: [UInt8] = []
    /// Lines so far (one per snapshot contact).
    private(set) var count = 0

    init(index: SearchIndex, expectedCount: Int) {
        self.index = index
        body.reserveCapacity(expectedCount * 48)
    }

    /// The line of the contact whose snapshot line starts at `offset`, its keys computed from `record`.
    mutating func append(offset: Int, record: ContactRecord) {
        body.append(contentsOf: String(offset).utf8)
        Self.appendKeys(of: record, index: index, to: &body)
        body.append(0x0A)
        count += 1
    }

    /// What follows a contact's offset in `index`'s line (nothing, or a space before each word of
    /// its keys), appended to `bytes`: ``append(offset:storedKeys:)`` takes these bytes back.
    static func appendKeys(of record: ContactRecord, index: SearchIndex, to bytes: inout [UInt8]) {
        if let appendKeys = index.appendKeys {
            appendKeys(record, &bytes)
            return
        }
        appendKeys(index.keys(record), to: &bytes)
    }

    /// What follows a contact's offset for `keys`: a space before each word of each key.
    static func appendKeys(_ keys: [String], to bytes: inout [UInt8]) {
        // Each key's words, separated by one space: a byte loop, not `utf8.split`, whose generic
        // slices cost a debug build 5% of an import's time.
        // An index loop, not `for key in …`: a debug build runs that through the generic iterator.
        var next = 0
        while next < keys.count {
            var key = keys[next]
            next += 1
            key.withUTF8 { utf8 in
                var start = 0
                var position = 0
                while position <= utf8.count {
                    if position == utf8.count || utf8[position] == 0x20 || utf8[position] == 0x0A {
                        if position > start {
                            bytes.append(0x20)
                            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<position]))
                        }
                        start = position + 1
                    }
                    position += 1
                }
            }
        }
    }

    /// The line of a contact at `offset` whose keys come unchanged from an earlier index:
    /// `storedKeys` is what followed that line's offset (nothing, or a space and the keys).
    mutating func append(offset: Int, storedKeys: UnsafeRawBufferPointer) {
        appendDecimal(offset)
        body.append(contentsOf: storedKeys)
        body.append(0x0A)
        count += 1
    }

    /// Appends `value` in decimal, the text `String(value)` makes, a byte at a time: a debug build
    /// runs `String`'s generic integer initializer and the generic `append(contentsOf:)` of its
    /// UTF-8 unspecialized, for every contact a compaction writes, where appending one byte to a
    /// `[UInt8]` calls a specialization the standard library ships.
    private mutating func appendDecimal(_ value: Int) {
        // An offset is below 10^16 (at most 16 digits); anything else (never an offset) the general way.
        guard value >= 0, value < 10_000_000_000_000_000 else {
            body.append(contentsOf: String(value).utf8)
            return
        }
        // The digits four bits each, least significant first, so the most significant ends lowest:
        // one division by ten a digit (a debug build divides, where a release build multiplies).
        var rest = UInt64(UInt(bitPattern: value))
        var packed: UInt64 = 0
        var digits = 0
        repeat {
            let quotient = rest / 10
            packed = packed &<< 4 | (rest &- quotient &* 10)
            rest = quotient
            digits += 1
        } while rest != 0
        repeat {
            body.append(0x30 &+ UInt8(truncatingIfNeeded: packed & 0xF))
            packed &>>= 4
            digits -= 1
        } while digits > 0
    }

    /// The whole file (header line, then the body) for the snapshot of `generation` whose file has
    /// `snapshotSize` bytes and inode `snapshotInode`; and the body alone.
    func file(generation: String, snapshotSize: Int, snapshotInode: UInt64) -> (file: Data, body: Data) {
        let bodyData = Data(body)
        var file = headerLine(generation: generation, snapshotSize: snapshotSize, snapshotInode: snapshotInode)
        file.append(bodyData)
        return (file, bodyData)
    }

    /// The header line (with its newline) naming the snapshot and the body's count and checksum.
    private func headerLine(generation: String, snapshotSize: Int, snapshotInode: UInt64) -> Data {
        let stored = SearchIndex.Header(
            format: 1, kind: "search-index", keys: index.keysVersion, generation: generation,
            snapshotSize: snapshotSize, snapshotInode: snapshotInode, count: count,
            checksum: body.withUnsafeBytes { SearchIndex.checksum($0) })
        var line = (try? LineCoding.encoder().encode(stored)) ?? Data()
        line.append(0x0A)
        return line
    }

    /// Writes the index beside a snapshot that is already durable at `snapshotPath` (under the
    /// store's exclusive lock, so the file is the one just written): atomically, not `fsync`ed —
    /// a crash before or during this leaves the previous index (another generation: stale) or one
    /// whose checksum fails, and the next search rebuilds it. Returns whether it was written; a
    /// snapshot whose size is not `expectedSnapshotSize` (it is not the one this index describes)
    /// gets no index.
    @discardableResult
    func write(to path: String, generation: String, snapshotPath: String, expectedSnapshotSize: Int) -> Bool {
        var info = stat()
        guard stat(snapshotPath, &info) == 0, Int(info.st_size) == expectedSnapshotSize else { return false }
        // Header and body written as they are: a million contacts' index is not copied into one Data.
        let header = headerLine(
            generation: generation, snapshotSize: expectedSnapshotSize, snapshotInode: UInt64(info.st_ino))
        let written: Void? = try? SecureFile.replace(path, durable: false) { fd, temp in
            try SecureFile.writeAll(fd: fd, path: temp, data: header)
            try SecureFile.writeAll(fd: fd, path: temp, data: Data(body))
        }
        return written != nil
    }
}

/// The stored keys of a verified index of the previous snapshot, looked up by a contact's offset in
/// that snapshot. Compaction asks in increasing offset order (both snapshots are sorted by
/// identifier), so one forward walk over the old index serves the whole pass: no map of a million
/// offsets, no re-derivation of an unchanged contact's keys.
struct StoredIndexKeys {
    private let file: MappedFile
    private var position: Int
    /// The line at `position`: its offset and the range of what follows the offset.
    private var current: (offset: Int, keys: Range<Int>)?

    init(file: MappedFile, bodyStart: Int) {
        self.file = file
        position = bodyStart
        current = nil
        advance()
    }

    private mutating func advance() {
        let bytes = file.bytes
        guard position < bytes.count,
            let newline = memchr(bytes.baseAddress! + position, 0x0A, bytes.count - position)
        else {
            current = nil
            return
        }
        let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(newline))
        var offset = 0
        var cursor = position
        while cursor < end, bytes[cursor] != 0x20 {
            let digit = bytes[cursor] &- 0x30
            // Not a number: this line matches no offset (its contact's keys are derived again).
            guard digit <= 9 else {
                offset = -1
                break
            }
            offset = offset &* 10 &+ Int(digit)
            cursor += 1
        }
        while cursor < end, bytes[cursor] != 0x20 { cursor += 1 }
        current = (offset, cursor..<end)
        position = end + 1
    }

    /// The stored keys (nothing, or a space and the keys) of the contact whose line started at
    /// `offset` in the old snapshot; nil when the index has no such line after the last one asked.
    mutating func keys(at offset: Int) -> UnsafeRawBufferPointer? {
        while let line = current, line.offset < offset { advance() }
        guard let line = current, line.offset == offset else { return nil }
        return UnsafeRawBufferPointer(rebasing: file.bytes[line.keys])
    }
}

/// One registered index while a compaction writes a new snapshot: its new body, and the old
/// index's keys to carry forward for contacts that did not change.
struct DerivedIndexPass {
    var builder: SearchIndexBuilder
    var stored: StoredIndexKeys?
    /// A contact whose keys could not be computed: no index is written (the next search builds one).
    var abandoned = false

    /// The contact at `offset` of the new snapshot, whose keys were derived already (what
    /// ``SearchIndexBuilder/appendKeys(of:index:to:)`` wrote for it).
    mutating func add(offset: Int, derivedKeys: UnsafeRawBufferPointer) {
        guard !abandoned else { return }
        builder.append(offset: offset, storedKeys: derivedKeys)
    }

    /// The contact at `offset` of the new snapshot: carried from `oldOffset` of the previous
    /// snapshot when the old index has it, otherwise derived from `record()` (decoded only then).
    mutating func add(offset: Int, oldOffset: Int?, record: () throws -> ContactRecord) {
        guard !abandoned else { return }
        if let oldOffset, let keys = stored?.keys(at: oldOffset) {
            builder.append(offset: offset, storedKeys: keys)
            return
        }
        do {
            builder.append(offset: offset, record: try record())
        } catch {
            abandoned = true
        }
    }
}
