import Foundation

// Reading every contact without holding the address book (issue 44, "every command streams").
//
// A command that reads the whole store (`list`, `export`, `system list`, a scanning `search`,
// `doctor`) reads it once into a lazy state: snapshot contacts stay byte ranges of the mapped
// snapshot, which is immutable (replaced whole by a rename, so the mapping stays the generation that
// was read even if a writer compacts meanwhile), and the journal's values are folded over them as
// `load()` folds them. Each contact is decoded only when it is handed on, and dropped after. Memory
// is then one identifier and one range per contact, plus the journal's values (bounded by
// compaction), not the decoded address book: the bound `docs/cli.md` states.
extension JournaledStore {
    /// Every live contact, in `load().contacts`' order, decoded one at a time and given to `body`;
    /// `count` is told how many first. The state is read once (never waiting for a writer).
    ///
    /// A snapshot line that `load()` would refuse is refused here too, as a malformed line of the
    /// snapshot, when it is reached (the lazy read checks each line's syntax and identifier up front;
    /// its values are decoded as they are handed on), so nothing is skipped without a word.
    package func forEachContact(count: (Int) -> Void = { _ in }, _ body: (ContactRecord) throws -> Void) throws {
        let lazy = JournaledStore(directory: directory, retainsContacts: true, lazySnapshot: true)
        let state = try lazy.load()
        count(state.count)
        for identifier in state.order {
            if let record = state.records[identifier] {
                try body(record)
            } else if let range = state.snapshotLines[identifier], let file = state.snapshotFile {
                let record: ContactRecord
                do {
                    record = try ContactRecordCodec.decode(file.bytes, range: range)
                } catch {
                    throw StoreError.malformed(
                        path: snapshotPath, line: Self.lineNumber(of: range.lowerBound, in: file),
                        reason: LineCoding.reason(error))
                }
                try body(record)
            }
        }
    }

    /// Checks the store as `load()` does (every line of both files decoded, values included) while
    /// keeping only the set of its identifiers (to find duplicates): `doctor` checks a store without
    /// holding it decoded, nor the positions a state that pages keeps.
    package func verify() throws {
        let light = JournaledStore(directory: directory, retainsContacts: false, keepsOrder: false)
        try light.withLock(.shared) { _ = try light.loadUnlocked(retain: false, verifyingValues: true) }
    }

    /// The 1-based line of the byte at `offset` (an error's line: counted only when one is reported).
    static func lineNumber(of offset: Int, in file: MappedFile) -> Int {
        var line = 1
        for byte in UnsafeRawBufferPointer(rebasing: file.bytes[0..<min(offset, file.size)]) where byte == 0x0A {
            line += 1
        }
        return line
    }
}
