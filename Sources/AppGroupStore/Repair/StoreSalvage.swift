import Foundation
import Glibc

/// One problem found in a file of the App Group: where it is and what is wrong.
package struct StoreProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// The 1-based line, when the problem is in one line.
    package var line: Int?
    /// What is wrong, in words a user can act on.
    package var message: String

    /// A problem in `path` (at `line`, when known).
    package init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`.
    package var description: String {
        line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}

/// Everything readable in a (possibly damaged) store: every whole, valid line of both files.
package struct StoreSalvage<Meta: Codable & Equatable & Sendable>: Sendable {
    /// The live contacts after applying every readable journal entry to every readable snapshot line,
    /// sorted bytewise by identifier.
    package var contacts: [ContactRecord]
    /// The newest readable store-specific state.
    package var meta: Meta?
    /// The highest sequence number seen (a rebuilt store continues after it).
    package var headSeq: Int
    /// Snapshot contact lines kept.
    package var snapshotLinesKept: Int
    /// Journal entries applied.
    package var journalEntriesKept: Int
    /// Journal entries skipped because the snapshot already holds them (a superseded journal).
    package var journalEntriesFolded: Int
    /// Every problem found; each unreadable line is one problem, and is lost.
    package var problems: [StoreProblem]
    /// The lines (path and line) that could not be read and so are not in `contacts`.
    package var lostLines: [StoreProblem] { problems.filter { $0.line != nil && $0.message.hasPrefix("unreadable") } }

    static var unreadable: String { "unreadable line" }
}

extension JournaledStore {
    /// Reads every whole, valid line of the snapshot and journal, whatever else is damaged.
    ///
    /// Unlike `load()`, which refuses a damaged store, this never throws for bad content: each bad
    /// line becomes a `StoreProblem` and is skipped. Journal entries are applied in file order; in a
    /// journal the snapshot superseded (a compaction's or reset's leftover), those at or below the
    /// snapshot's `baseSeq` are already folded into it (or were discarded by the reset) and are skipped.
    ///
    /// `keepingValues` false (``check()``): only the problems are wanted; identifiers are kept to find
    /// duplicates, and `contacts` is left empty, so checking a large store does not hold it decoded
    /// (issue 44).
    package func salvage(keepingValues: Bool = true) throws -> StoreSalvage<Meta> {
        var salvage = StoreSalvage<Meta>(
            contacts: [], meta: nil, headSeq: 0, snapshotLinesKept: 0, journalEntriesKept: 0, journalEntriesFolded: 0,
            problems: [])
        var contacts = SalvagedContacts(keepsValues: keepingValues)
        var snapshotHeader: SnapshotHeader<Meta>?
        let snapshotData = try SecureFile.readIfPresent(snapshotPath)
        let journalData = try SecureFile.readIfPresent(journalPath)
        if let snapshotData {
            snapshotHeader = salvageSnapshot(snapshotData, into: &salvage, contacts: &contacts)
        } else if let journalData, !journalData.isEmpty {
            salvage.problems.append(
                StoreProblem(path: snapshotPath, line: 1, message: "missing, but journal.jsonl holds changes"))
        }
        if let journalData, !journalData.isEmpty {
            salvageJournal(journalData, snapshotHeader: snapshotHeader, into: &salvage, contacts: &contacts)
        }
        salvage.contacts = contacts.sorted()
        return salvage
    }

    /// Every readable line of the snapshot into `contacts`; its header, if readable.
    private func salvageSnapshot(
        _ snapshotData: Data, into result: inout StoreSalvage<Meta>, contacts: inout SalvagedContacts
    ) -> SnapshotHeader<Meta>? {
        let decoder = JSONDecoder()
        var snapshotHeader: SnapshotHeader<Meta>?
        let (lines, tornTail) = LineSplitter.split(snapshotData)
        if lines.isEmpty {
            result.problems.append(
                StoreProblem(path: snapshotPath, line: 1, message: "the snapshot has no header line"))
        }
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if index == 0 {
                do {
                    snapshotHeader = try decoder.decode(SnapshotHeader<Meta>.self, from: Data(line))
                    continue
                } catch {
                    result.problems.append(
                        StoreProblem(
                            path: snapshotPath, line: 1, message: "unreadable header: \(LineCoding.reason(error))"))
                    // A lost header line leaves a contact line first: keep it if it is one.
                    guard (try? decoder.decode(ContactRecord.self, from: Data(line))) != nil else { continue }
                }
            }
            do {
                // Exactly what load() accepts: a repair must not drop a line that a sound store keeps.
                let record = IdentifierRules.normalized(try decoder.decode(ContactRecord.self, from: Data(line)))
                if contacts.contains(record.identifier) {
                    result.problems.append(
                        StoreProblem(
                            path: snapshotPath, line: number,
                            message: "duplicate identifier '\(record.identifier)' (the later line is kept)"))
                }
                contacts.keep(record)
                result.snapshotLinesKept += 1
            } catch {
                result.problems.append(
                    StoreProblem(
                        path: snapshotPath, line: number,
                        message: "\(StoreSalvage<Meta>.unreadable): \(Self.reason(error))"))
            }
        }
        if tornTail > 0 {
            result.problems.append(
                StoreProblem(
                    path: snapshotPath, line: lines.count + 1,
                    message:
                        "\(StoreSalvage<Meta>.unreadable): \(tornTail) bytes with no newline at the end of the file"
                ))
        }
        if let header = snapshotHeader {
            result.meta = header.meta
            result.headSeq = header.baseSeq
            if header.count != lines.count - 1 {
                result.problems.append(
                    StoreProblem(
                        path: snapshotPath, line: 1,
                        message:
                            "the header says \(header.count) contacts but the file has \(lines.count - 1) contact lines"
                    ))
            }
        }
        return snapshotHeader
    }

    /// Every readable, committed journal entry applied to `contacts` in file order.
    private func salvageJournal(
        _ fullJournal: Data, snapshotHeader: SnapshotHeader<Meta>?, into result: inout StoreSalvage<Meta>,
        contacts: inout SalvagedContacts
    ) {
        let decoder = JSONDecoder()
        // An append with a writeback hole, and everything after it, was never acknowledged: keeping
        // the whole lines after the hole would leave a database that is no prefix of what was written.
        let committed = fullJournal.withUnsafeBytes { JournalHoles.committedEnd(of: $0) }
        let journalData = fullJournal.prefix(committed)
        let (lines, tornTail) = LineSplitter.split(journalData)
        var previousSeq: Int?
        // Entries at or below the snapshot's base are skipped only in a journal the snapshot superseded
        // (a compaction's or reset's leftover). Anywhere else they are replayed: replaying folded
        // entries in order ends in the same state, and skipping on a damaged number would lose them.
        var superseded = false
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if index == 0 {
                do {
                    let header = try decoder.decode(JournalHeader.self, from: Data(line))
                    result.headSeq = max(result.headSeq, header.baseSeq)
                    if let snapshotHeader, header.generation != snapshotHeader.generation {
                        superseded = [snapshotHeader.previousGeneration, snapshotHeader.replacedGeneration]
                            .contains(header.generation)
                        result.problems.append(
                            StoreProblem(
                                path: journalPath, line: 1,
                                message:
                                    "generation '\(header.generation)' is not the snapshot's ('\(snapshotHeader.generation)')"
                            ))
                    }
                    continue
                } catch {
                    result.problems.append(
                        StoreProblem(
                            path: journalPath, line: 1, message: "unreadable header: \(LineCoding.reason(error))"))
                    // A lost header line leaves an entry first: keep it if it is one.
                    guard (try? decoder.decode(JournalEntry<Meta>.self, from: Data(line))) != nil else { continue }
                }
            }
            let entry: JournalEntry<Meta>
            do {
                entry = try decoder.decode(JournalEntry<Meta>.self, from: Data(line))
            } catch {
                result.problems.append(
                    StoreProblem(
                        path: journalPath, line: number,
                        message: "\(StoreSalvage<Meta>.unreadable): \(Self.reason(error))"))
                continue
            }
            if let previousSeq, entry.seq != previousSeq + 1 {
                result.problems.append(
                    StoreProblem(
                        path: journalPath, line: number,
                        message: "sequence number \(entry.seq) does not follow \(previousSeq)"))
            }
            previousSeq = entry.seq
            if superseded, let snapshotHeader, entry.seq <= snapshotHeader.baseSeq {
                result.journalEntriesFolded += 1
                continue
            }
            for record in entry.upsert ?? [] {
                let record = IdentifierRules.normalized(record)
                contacts.keep(record)
            }
            for identifier in entry.delete ?? [] { contacts.remove(IdentifierRules.normalized(identifier)) }
            if let meta = entry.meta { result.meta = meta }
            result.headSeq = max(result.headSeq, entry.seq)
            result.journalEntriesKept += 1
        }
        result.problems += journalTailProblems(
            committed: committed, fileSize: fullJournal.count, tornTail: tornTail, wholeLines: lines.count)
    }

    /// What the end of the journal lost: a torn append with a writeback hole, or a torn last line.
    /// Neither was ever acknowledged, so neither is data lost.
    private func journalTailProblems(committed: Int, fileSize: Int, tornTail: Int, wholeLines: Int) -> [StoreProblem] {
        var problems: [StoreProblem] = []
        if committed < fileSize {
            problems.append(
                StoreProblem(
                    path: journalPath, line: wholeLines + 1,
                    message:
                        "a torn append (\(fileSize - committed) bytes with a writeback hole: zeros where a power cut kept no data; never committed) is ignored"
                ))
        }
        // A torn last line is what a crash mid-append leaves: it was never acknowledged.
        if tornTail > 0 {
            problems.append(
                StoreProblem(
                    path: journalPath, line: wholeLines + 1,
                    message: wholeLines == 0
                        ? "a torn header (\(tornTail) bytes, nothing committed) is ignored"
                        : "a torn last line (\(tornTail) bytes, never committed) is ignored"))
        }
        return problems
    }

    private static func reason(_ error: Error) -> String {
        if let error = error as? StoreError { return "\(error)" }
        return LineCoding.reason(error)
    }

    /// The problems `load()` would refuse, plus every other unreadable line: empty when the store is sound.
    package func check() throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var loads = false
        do {
            // Every line decoded, as load() decodes it, but only identifiers kept (issue 44).
            try verify()
            loads = true
            // The identifiers it held are freed: give the heap back before the salvage reads the files.
            MemoryTrim.returnFreeMemory()
        } catch let error as StoreError {
            if case .malformed(let path, let line, let reason) = error {
                problems.append(StoreProblem(path: path, line: line, message: reason))
            } else if case .unsupportedFormat(let path, let version) = error {
                problems.append(
                    StoreProblem(
                        path: path, line: 1,
                        message:
                            "format version \(version), written by a newer version of this tool (this build reads \(StoreFormat.version)); it is not repaired"
                    ))
            } else {
                problems.append(StoreProblem(path: directory, message: "\(error)"))
            }
        }
        // A torn last journal line is a normal crash leftover that load() and writers handle: not a problem.
        // A journal of another generation in a store that loads is a crash leftover proven superseded.
        defer { MemoryTrim.returnFreeMemory() }
        for problem in try salvage(keepingValues: false).problems
        where !problem.message.hasPrefix("a torn ") && !(loads && problem.message.hasPrefix("generation ")) {
            if !problems.contains(where: { $0.path == problem.path && $0.line == problem.line }) {
                problems.append(problem)
            }
        }
        return problems
    }
}

/// The contacts a salvage has read so far: decoded (a repair rebuilds the store from them), or only
/// their identifiers (a check needs to know which exist, to report duplicates).
struct SalvagedContacts {
    let keepsValues: Bool
    private var values: [String: ContactRecord] = [:]
    private var identifiers: Set<String> = []

    init(keepsValues: Bool) {
        self.keepsValues = keepsValues
    }

    func contains(_ identifier: String) -> Bool {
        values[identifier] != nil || identifiers.contains(identifier)
    }

    mutating func keep(_ record: ContactRecord) {
        if keepsValues {
            values[record.identifier] = record
        } else {
            identifiers.insert(record.identifier)
        }
    }

    mutating func remove(_ identifier: String) {
        values[identifier] = nil
        identifiers.remove(identifier)
    }

    /// The contacts sorted bytewise by identifier (none when only identifiers are kept).
    func sorted() -> [ContactRecord] {
        values.values.sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) }
    }
}
