import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Glibc
import TestSupport
import Testing

/// Ways to damage a store file.
enum ReliabilityCorruption: String, CaseIterable {
    case truncateAnywhere, truncateAtLine, flipBytes, insertBadUTF8, wrongTypeLine, hugeLine, dropLine, duplicateLine
    case tornGarbage, emptyFile, swapLines, tamperMeta

    /// Lines that are JSON but of the wrong type for any store line.
    static let wrongTypeLines: [String] = [
        "null", "[]", "1", "\"x\"", "{}", "true", #"{"seq":"7"}"#, #"{"seq":1e400}"#, #"{"seq":-1}"#,
        #"{"identifier":5}"#, #"{"identifier":"a","phoneNumbers":"x"}"#, #"{"identifier":"a","birthday":"2020-13-40"}"#,
        #"{"identifier":"a","imageData":"not base64!"}"#, #"{"format":"1","kind":"snapshot"}"#,
        #"{"format":2,"kind":"journal","generation":"x","baseSeq":0}"#, #"{"seq":5,"upsert":{}}"#,
        #"{"seq":5,"delete":[1,2]}"#, #"{"seq":5,"meta":{"phase":"bogus"}}"#, #"{"seq":5,"meta":[]}"#,
    ]

    /// Text replacements that keep the JSON valid but give a field a wrong type or value.
    static let tamperings: [(String, String)] = [
        (#""phase":"changes""#, #""phase":"bogus""#), (#""phase":"content""#, #""phase":7"#),
        (#""offset":"#, #""offset":"x","_":"#), (#""generationMarker":""#, #""generationMarker":"!!!"#),
        (#""baseSeq":"#, #""baseSeq":"x","_":"#), (#""count":"#, #""count":-1,"_":"#),
        (#""generation":""#, #""generation":"X"#), (#""seq":"#, #""seq":"1","_":"#),
        (#""identifier":""#, #""identifier":5,"_":""#), (#""upsert":["#, #""upsert":[1,"#),
    ]

    /// `bytes` damaged in this way.
    func apply(to bytes: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var data = bytes
        let newlines = data.indices.filter { data[$0] == 0x0A }
        // Line i spans lineStarts[i] ..< newlines[i] (a last unterminated line is ignored here).
        let lineStarts = [0] + newlines.dropLast().map { $0 + 1 }
        func randomLine() -> Int? { newlines.isEmpty ? nil : random.int(0..<newlines.count) }
        switch self {
        case .truncateAnywhere:
            return Array(data.prefix(random.int(0..<max(1, data.count))))
        case .truncateAtLine:
            guard let line = randomLine() else { return [] }
            return Array(data.prefix(newlines[line] + 1))
        case .flipBytes:
            ReliabilityMutation.flip(&data, count: random.int(1...4), &random)
        case .insertBadUTF8:
            ReliabilityMutation.insertBadUTF8(&data, &random)
        case .wrongTypeLine:
            guard let line = randomLine() else { return data }
            data.replaceSubrange(lineStarts[line]..<newlines[line], with: Array(random.pick(Self.wrongTypeLines).utf8))
        case .hugeLine:
            // Up to 1 MB with no newline, replacing a line or inserted before one.
            let huge = [UInt8](repeating: random.pick([0x41, 0x7B, 0x22, 0xFF]), count: random.int(5000...(1 << 20)))
            guard let line = randomLine() else { return huge }
            if random.chance(0.5) {
                data.replaceSubrange(lineStarts[line]..<newlines[line], with: huge)
            } else {
                data.insert(contentsOf: huge + [0x0A], at: lineStarts[line])
            }
        case .dropLine:
            guard let line = randomLine() else { return data }
            data.removeSubrange(lineStarts[line]...newlines[line])
        case .duplicateLine:
            guard let line = randomLine() else { return data }
            data.insert(
                contentsOf: Array(data[lineStarts[line]...newlines[line]]),
                at: lineStarts[random.int(0..<newlines.count)])
        case .tornGarbage:
            data += random.pick([Array(#"{"seq":"#.utf8), random.bytes(random.int(1...100)).filter { $0 != 0x0A }])
        case .emptyFile:
            return []
        case .swapLines:
            guard newlines.count >= 2 else { return data }
            let a = random.int(0..<newlines.count - 1)
            let b = random.int((a + 1)..<newlines.count)
            let first = Array(data[lineStarts[a]..<newlines[a]])
            let second = Array(data[lineStarts[b]..<newlines[b]])
            data.replaceSubrange(lineStarts[b]..<newlines[b], with: first)
            data.replaceSubrange(lineStarts[a]..<newlines[a], with: second)
        case .tamperMeta:
            let text = String(decoding: data, as: UTF8.self)
            let present = Self.tamperings.filter { text.contains($0.0) }
            guard !present.isEmpty else { return data }
            let (from, to) = random.pick(present)
            let ranges = text.ranges(of: from)
            var changed = text
            changed.replaceSubrange(ranges[random.int(0..<ranges.count)], with: to)
            return Array(changed.utf8)
        }
        return data
    }
}

/// Tallies of one corruption fuzz run.
struct ReliabilityCorruptionTally {
    var cases = 0
    var readsOK = 0
    var readErrors = 0
    var writesOK = 0
    var writesRefused = 0
    var unreadableAfterWrite = 0
    var staleJournals = 0
    var byKind: [String: Int] = [:]

    var summary: String {
        "\(cases) cases (reads: \(readsOK) ok, \(readErrors) StoreError; writes: \(writesOK) ok, \(writesRefused) refused with the files unchanged, \(unreadableAfterWrite) appended after earlier damage that still reads as the same error, \(staleJournals) of them after a damaged generation made the journal look stale)"
    }
}

/// Corrupted app databases and system stores: reads succeed or throw a `StoreError` that names the
/// file (and the line); a write after a failed read either leaves the files as they were or makes a
/// store that reads back with the new contact.
@Suite("Reliability: corrupted snapshot and journal files")
struct ReliabilityStoreFuzzTests {
    /// A contact with varied fields (unicode, escapes, dates, image data).
    static func contact(_ index: Int, _ random: inout SeededRandom) -> ContactRecord {
        var record = ContactRecord(
            identifier: String(format: "c-%05d", index) + random.pick(["", "-é", "/x", " q\"", "😀"]))
        record.givenName = random.pick(["Ada", "Zoë", "李", "O'Brien", "Ŝ\u{301}", ""]) + "\(index)"
        record.familyName = random.pick(["Lovelace", "Ng", "Ünsal", "\"quoted\"", "back\\slash"])
        if random.chance(0.7) {
            record.phoneNumbers = [.init(label: "_$!<Mobile>!$_", value: "+1 555 \(1_000_000 + index)")]
        }
        if random.chance(0.5) { record.emailAddresses = [.init(label: nil, value: "p\(index)@example.org")] }
        if random.chance(0.3) { record.note = "line one\nline two\t\u{1F600}" }
        if random.chance(0.3) { record.birthday = random.pick(["1980-05-17", "--12-09", "2000-02-29"]) }
        if random.chance(0.1) { record.imageData = Data(random.bytes(random.int(1...64))) }
        return record
    }

    /// A valid app database with `count` contacts in the snapshot and ~20 journal entries; returns the
    /// file bytes and identifiers to look up (in the snapshot, added by the journal, deleted by it).
    static func appTemplate(in directory: String, count: Int) throws -> (
        snapshot: Data, journal: Data, lookups: [String]
    ) {
        var random = SeededRandom(seed: 1)
        let database = AppDatabase(appGroup: AppGroup(path: directory))
        let records = (0..<count).map { contact($0, &random) }
        try database.replaceAll(with: records)
        var added: [String] = []
        for index in count..<(count + 8) { added.append(try database.add(contact(index, &random)).identifier) }
        for record in records.prefix(6) { try database.update(record.identifier) { $0.jobTitle = "Updated" } }
        try database.delete([records[7].identifier, added[0]])
        try database.add(contact(count + 100, &random))
        let store = database.store
        return (
            try #require(FileManager.default.contents(atPath: store.snapshotPath)),
            try #require(FileManager.default.contents(atPath: store.journalPath)),
            [records[0].identifier, records[count / 2].identifier, added[3], records[7].identifier, "absent"]
        )
    }

    /// A loaded state's live contacts by identifier (through the public `contacts`).
    static func byIdentifier<Meta>(_ state: StoreState<Meta>) -> [String: ContactRecord] {
        Dictionary(state.contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Checks a read or write error: a `StoreError` naming one of the store's files, and for
    /// `malformed` the `path:line:` form with a real line number.
    static func checkError(_ error: Error, files: [String], context: String) {
        guard let storeError = error as? StoreError else {
            Issue.record("\(context): threw \(type(of: error)) instead of StoreError: \(error)")
            return
        }
        let description = storeError.description
        #expect(files.contains { description.contains($0) }, "\(context): error does not name the file: \(description)")
        if case .malformed(let path, let line, _) = storeError {
            #expect(files.contains(path), "\(context): \(description)")
            #expect(line >= 1, "\(context): malformed without a line number: \(description)")
            #expect(description.hasPrefix("\(path):\(line): malformed: "), "\(context): \(description)")
        }
    }

    /// Runs `body`, recording a crash-free outcome; returns whether it threw.
    /// One fuzz case's damage: a kind picked from `kinds` applied to the snapshot or the journal
    /// (picked at random, in that order, so a seed replays the same case), both written to `files`
    /// (snapshot path, journal path). Returns the kind and the file, as failure messages name them.
    static func writeCorrupted(
        snapshot: Data, journal: Data, to files: [String], kinds: [ReliabilityCorruption], _ random: inout SeededRandom
    ) throws -> CorruptedFile {
        let kind = random.pick(kinds)
        let targetIsJournal = random.chance(0.5)
        var snapshot = snapshot
        var journal = journal
        if targetIsJournal {
            journal = Data(kind.apply(to: Array(journal), &random))
        } else {
            snapshot = Data(kind.apply(to: Array(snapshot), &random))
        }
        try SecureFile.replace(files[0], with: snapshot, durable: false)
        try SecureFile.replace(files[1], with: journal, durable: false)
        return CorruptedFile(kind: kind, isJournal: targetIsJournal)
    }

    /// Which corruption a fuzz case applied, and to which file ("flipBytes of journal").
    struct CorruptedFile: CustomStringConvertible {
        var kind: ReliabilityCorruption
        var isJournal: Bool
        var description: String { "\(kind.rawValue) of \(isJournal ? "journal" : "snapshot")" }
    }

    static func attempt(_ files: [String], _ context: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            checkError(error, files: files, context: context)
            return true
        }
    }

    /// The bytes a failed write may leave: the file as it was, or with a torn (unterminated) tail cut
    /// off at its last newline, which readers ignore and the crash-recovery path of every writer removes.
    static func unchangedOrTornTailCut(before: Data?, after: Data?) -> Bool {
        guard let before, let after, before != after else { return before == after }
        guard let lastNewline = before.lastIndex(of: 0x0A) else { return false }
        return after == before[...lastNewline]
    }

    /// Whether the snapshot's and the journal's header lines both parse and name different generations.
    static func generationsDiffer(snapshot: Data?, journal: Data?) -> Bool {
        func generation(_ data: Data?) -> String? {
            guard let data, let end = data.firstIndex(of: 0x0A),
                let object = try? JSONSerialization.jsonObject(with: data[..<end]) as? [String: Any]
            else { return nil }
            return object["generation"] as? String
        }
        guard let a = generation(snapshot), let b = generation(journal) else { return false }
        return a != b
    }

    /// A write after the reads, and what it may leave behind.
    ///
    /// - Refused: the files are as they were (a torn tail may have been cut, see above).
    /// - Accepted on a store that read fine: it must read back, with the write in it.
    /// - Accepted on a store that did not read: writes are O(1) by design (README "Files and formats"):
    ///   a writer checks the snapshot header and the journal's header and last line, not every line,
    ///   so damage earlier in a file is not seen and the entry is appended after it. What must hold
    ///   then: the write only appended (the old bytes are untouched), and the store still fails with
    ///   exactly the error it failed with before (nothing new was broken, nothing damaged thrown away).
    static func checkWrite<Meta>(
        store: JournaledStore<Meta>, files: [String], context: String,
        tally: inout ReliabilityCorruptionTally, write: () throws -> Void, check: (StoreState<Meta>) throws -> Void
    ) {
        let before = files.map { FileManager.default.contents(atPath: $0) }
        var errorBefore: String?
        do { _ = try store.load() } catch { errorBefore = "\(error)" }
        do {
            try write()
        } catch {
            tally.writesRefused += 1
            checkError(error, files: files, context: context + ", write")
            let after = files.map { FileManager.default.contents(atPath: $0) }
            #expect(after[0] == before[0], "\(context): a refused write changed snapshot.jsonl")
            #expect(
                unchangedOrTornTailCut(before: before[1], after: after[1]),
                "\(context): a refused write changed journal.jsonl")
            return
        }
        tally.writesOK += 1
        guard let errorBefore else {
            do {
                try check(try store.load())
            } catch {
                Issue.record("\(context): a write made a readable store unreadable: \(error)")
            }
            return
        }
        // Accepted although the store did not read: it may only have appended.
        tally.unreadableAfterWrite += 1
        let after = files.map { FileManager.default.contents(atPath: $0) }
        #expect(after[0] == before[0], "\(context): a write into an unreadable store replaced snapshot.jsonl")
        if let old = before[1], let new = after[1] {
            let kept = old.lastIndex(of: 0x0A).map { old[...$0] } ?? Data()
            if generationsDiffer(snapshot: before[0], journal: old) {
                // The documented crash-recovery rule: a journal whose header names another generation
                // is a leftover and is replaced (a damaged generation looks exactly like one).
                tally.staleJournals += 1
            } else {
                #expect(
                    new.starts(with: kept),
                    "\(context): a write into an unreadable store rewrote journal.jsonl (\(errorBefore))")
            }
        }
        do {
            _ = try store.load()
            Issue.record(
                "\(context): the store read after a write although it failed before (\(errorBefore)): damaged bytes were discarded"
            )
        } catch {
            #expect(
                "\(error)" == errorBefore,
                "\(context): after an accepted write the store fails differently: \(error), before: \(errorBefore)")
        }
    }

    @Test(
        "App database: corrupted snapshot.jsonl / journal.jsonl never crash, errors name the file, failed writes change nothing"
    )
    func appDatabaseCorruption() throws {
        try withTemporaryAppGroup { group in
            let seed = TestScale.seed
            let template = try Self.appTemplate(in: group.path + "/template", count: 300)
            var tally = ReliabilityCorruptionTally()
            let result = try ReliabilityFuzzBudget(cases: 400, seconds: 2.5).run { index in
                var random = SeededRandom.forCase(index, seed: seed)
                let appGroup = AppGroup(path: group.path + "/case-\(index)")
                defer { try? FileManager.default.removeItem(atPath: appGroup.path) }
                let database = AppDatabase(appGroup: appGroup)
                let store = database.store
                try SecureFile.ensureDirectory(store.directory)
                let files = [store.snapshotPath, store.journalPath]
                let damage = try Self.writeCorrupted(
                    snapshot: template.snapshot, journal: template.journal, to: files,
                    kinds: ReliabilityCorruption.allCases,
                    &random)
                let context = "seed \(seed) case \(index): \(damage)"
                tally.cases += 1
                tally.byKind[damage.kind.rawValue, default: 0] += 1

                var readFailed = Self.attempt(files, context + ", load()") { _ = try store.load() }
                readFailed = Self.attempt(files, context + ", all()") { _ = try database.all() } || readFailed
                for identifier in template.lookups {
                    readFailed =
                        Self.attempt(files, context + ", get(\(identifier))") { _ = try database.get(identifier) }
                        || readFailed
                }
                // A store that loads answers lookups consistently with what it loaded.
                if let state = try? store.load() {
                    let loaded = Self.byIdentifier(state)
                    for identifier in template.lookups {
                        if let found = try? database.get(identifier) {
                            #expect(found == loaded[identifier], "\(context): get(\(identifier)) disagrees with load()")
                        }
                    }
                }
                let generation = (try? store.load())?.generation ?? ""
                readFailed =
                    Self.attempt(files, context + ", changes(after:)") {
                        _ = try store.changes(after: 300, in: generation, limit: 100)
                    } || readFailed
                if readFailed { tally.readErrors += 1 } else { tally.readsOK += 1 }

                // A write after the reads: refused with the files untouched, or a store that reads back.
                var added = ContactRecord(identifier: "fuzz-new-\(index)")
                added.givenName = "New"
                Self.checkWrite(
                    store: store, files: files, context: context, tally: &tally,
                    write: { try database.add(added) },
                    check: { state throws in
                        #expect(
                            Self.byIdentifier(state)[added.identifier] == added,
                            "\(context): the new contact is missing after a successful write")
                        #expect(try database.get(added.identifier) == added, "\(context)")
                    })
            }
            #expect(tally.byKind.count >= min(result.cases, 6), "the corruption kinds should vary: \(tally.byKind)")
            #expect(tally.readErrors > 0, "the corruptions should make some reads fail")
            print(
                "fuzz: app database, \(tally.summary), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
            )
        }
    }

    /// A valid system store: a content enumeration in pages, a compaction, then change batches, each
    /// entry with its `SyncState` in `meta`.
    static func systemTemplate(in directory: String) throws -> (snapshot: Data, journal: Data, meta: SyncState) {
        var random = SeededRandom(seed: 2)
        let store = SystemStore(directory: directory)
        try store.reset(meta: .initial)
        let marker = Data("cps1:6F9A-GEN:120".utf8)
        for page in 0..<6 {
            let contacts = (0..<20).map { contact(page * 20 + $0, &random) }
            try store.append(
                upsert: contacts,
                meta: SyncState(
                    phase: .content, nextPage: SyncPosition(generationMarker: marker, offset: (page + 1) * 20)))
        }
        try store.append(meta: SyncState(phase: .changes, anchor: SyncPosition(generationMarker: marker, offset: 0)))
        try store.compact()
        var last = SyncState.initial
        for batch in 1...6 {
            last = SyncState(phase: .changes, anchor: SyncPosition(generationMarker: marker, offset: batch))
            try store.append(
                upsert: [contact(500 + batch, &random)], delete: [String(format: "c-%05d", batch)], meta: last)
        }
        return (
            try #require(FileManager.default.contents(atPath: store.snapshotPath)),
            try #require(FileManager.default.contents(atPath: store.journalPath)), last
        )
    }

    @Test(
        "System store: corrupted files and wrongly typed SyncState meta never crash, errors name the file, failed writes change nothing"
    )
    func systemStoreCorruption() throws {
        try withTemporaryAppGroup { group in
            let seed = TestScale.seed
            let template = try Self.systemTemplate(in: group.path + "/template")
            // The sync-state kinds matter most here; the generic ones are covered on the app database.
            let kinds: [ReliabilityCorruption] = [
                .tamperMeta, .tamperMeta, .wrongTypeLine, .truncateAnywhere, .flipBytes, .tornGarbage,
            ]
            var tally = ReliabilityCorruptionTally()
            let result = try ReliabilityFuzzBudget(cases: 300, seconds: 2).run { index in
                var random = SeededRandom.forCase(index, seed: seed)
                let directory = group.path + "/case-\(index)"
                defer { try? FileManager.default.removeItem(atPath: directory) }
                try SecureFile.ensureDirectory(directory)
                let store = SystemStore(directory: directory)
                let light = SystemStore(directory: directory, retainsContacts: false)
                let files = [store.snapshotPath, store.journalPath]
                let damage = try Self.writeCorrupted(
                    snapshot: template.snapshot, journal: template.journal, to: files, kinds: kinds, &random)
                let context = "seed \(seed) case \(index): \(damage)"
                tally.cases += 1

                var readFailed = Self.attempt(files, context + ", load()") { _ = try store.load() }
                readFailed =
                    Self.attempt(files, context + ", load() identifiers only") { _ = try light.load() } || readFailed
                readFailed =
                    Self.attempt(files, context + ", readSnapshotHeader()") { _ = try store.readSnapshotHeader() }
                    || readFailed
                if readFailed { tally.readErrors += 1 } else { tally.readsOK += 1 }

                var added = ContactRecord(identifier: "fuzz-page-\(index)")
                added.familyName = "Paged"
                let meta = SyncState(
                    phase: .changes, anchor: SyncPosition(generationMarker: Data("m".utf8), offset: index))
                Self.checkWrite(
                    store: store, files: files, context: context, tally: &tally,
                    write: { try store.append(upsert: [added], meta: meta) },
                    check: { state throws in
                        #expect(
                            Self.byIdentifier(state)[added.identifier] == added,
                            "\(context): the committed page is missing")
                        #expect(state.meta == meta, "\(context): the committed sync state is not the store's state")
                        // The engine's identifiers-only view sees the same contacts.
                        let identifiers = try light.load()
                        #expect(
                            identifiers.order.contains(added.identifier) && identifiers.count == state.count,
                            "\(context)")
                    })
            }
            #expect(result.cases > 0)
            #expect(tally.readErrors > 0, "the corruptions should make some reads fail")
            print(
                "fuzz: system store, \(tally.summary), 0 crashes, seed \(seed), \(String(format: "%.2f", result.seconds)) s"
            )
        }
    }
}

/// Regressions found by the corruption fuzzer, kept as plain, deterministic tests.
@Suite("Reliability: store corruption regressions")
struct ReliabilityStoreRegressionTests {
    /// A database with a snapshot of `count` contacts and a few journal entries.
    static func database(_ group: TemporaryAppGroup, count: Int = 50) throws -> AppDatabase {
        let database = AppDatabase(appGroup: group.appGroup)
        try database.replaceAll(with: (0..<count).map { ContactRecord(identifier: String(format: "id-%03d", $0)) })
        for index in 0..<5 { try database.add(ContactRecord(identifier: "journal-\(index)")) }
        return database
    }

    static func lines(_ path: String) throws -> [Data] {
        try #require(FileManager.default.contents(atPath: path)).split(
            separator: 0x0A, omittingEmptySubsequences: false
        ).map { Data($0) }
    }

    static func write(_ lines: [Data], to path: String) throws {
        try SecureFile.replace(path, with: Data(lines.joined(separator: [0x0A])), durable: false)
    }

    @Test(
        "A journal header line damaged beyond 4096 bytes is reported by readers and writers alike, never rewritten as empty"
    )
    func longDamagedJournalHeader() throws {
        try withTemporaryAppGroup { group in
            let database = try Self.database(group)
            let journal = database.store.journalPath
            var lines = try Self.lines(journal)
            lines[0] = Data(repeating: UInt8(ascii: "x"), count: 5000)
            try Self.write(lines, to: journal)
            let before = try #require(FileManager.default.contents(atPath: journal))

            #expect(throws: StoreError.malformed(path: journal, line: 1, reason: "The given data was not valid JSON."))
            {
                _ = try database.store.load()
            }
            #expect(throws: StoreError.self) { try database.add(ContactRecord(identifier: "new")) }
            #expect(
                FileManager.default.contents(atPath: journal) == before,
                "the five committed journal entries were thrown away")
            #expect(throws: StoreError.self) { _ = try database.all() }
        }
    }

    @Test("A journal with no newline at all (a torn header) is still treated as empty and rewritten by the next writer")
    func tornJournalHeaderStillRecovers() throws {
        try withTemporaryAppGroup { group in
            let database = try Self.database(group)
            try SecureFile.replace(
                database.store.journalPath, with: Data(repeating: UInt8(ascii: "{"), count: 6000), durable: false)
            #expect(try database.all().count == 50)
            try database.add(ContactRecord(identifier: "new"))
            #expect(try database.all().count == 51)
        }
    }

    @Test("A snapshot whose lines are out of order is malformed (lookups binary-search it), with the line named")
    func snapshotOutOfOrder() throws {
        try withTemporaryAppGroup { group in
            let database = try Self.database(group)
            let snapshot = database.store.snapshotPath
            var lines = try Self.lines(snapshot)
            // Line 2 is the first contact, line 51 the last: swap them.
            lines.swapAt(1, 50)
            try Self.write(lines, to: snapshot)
            do {
                let state = try database.store.load()
                // Had the load been accepted, lookups would have to agree with it; they do not.
                Issue.record(
                    "an unsorted snapshot loaded; get(id-000) = \(String(describing: try? database.get("id-000"))), load has it: \(ReliabilityStoreFuzzTests.byIdentifier(state)["id-000"] != nil)"
                )
            } catch let error as StoreError {
                guard case .malformed(let path, let line, let reason) = error else {
                    Issue.record("not malformed: \(error)")
                    return
                }
                #expect(path == snapshot)
                #expect(line == 3)
                #expect(reason.contains("order"), "\(reason)")
            }
        }
    }
}
