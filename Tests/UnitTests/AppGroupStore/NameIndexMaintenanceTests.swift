import AppGroupStore
import ContactProviderTesting
import ContactsHostKit
import ContactsInterop
import Foundation
import TestSupport
import Testing

/// Counts calls of an index's key function (to prove a compaction carries unchanged keys forward).
private final class KeyCallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var identifiers: [String] = []

    func record(_ identifier: String) {
        lock.lock()
        identifiers.append(identifier)
        lock.unlock()
    }

    func take() -> [String] {
        lock.lock()
        defer {
            identifiers = []
            lock.unlock()
        }
        return identifiers
    }
}

/// An index file's header fields and body.
private struct IndexFile: Equatable {
    var header: [String: String]
    var body: Data

    init(_ file: Data) throws {
        let newline = try #require(file.firstIndex(of: 0x0A))
        let object = try #require(try JSONSerialization.jsonObject(with: file[..<newline]) as? [String: Any])
        header = object.mapValues { "\($0)" }
        body = file[(newline + 1)...]
    }
}

@Suite("The name index is written with every new snapshot: the first search after a compaction or import uses it")
struct NameIndexMaintenanceTests {
    static let queries = [
        "ada", "ad lov", "zoe", "ZOË", "émi", "emile", "osa", "åsa", "li", "李", "jr", "analytical a", "école", "mull",
        "x", "rob ada", "new",
    ]

    private func contact(_ identifier: String, _ random: inout SeededRandom) -> ContactRecord {
        let names = NameIndexSearchTests.names
        var record = ContactRecord(identifier: identifier)
        record.givenName = names[random.below(names.count)]
        if random.chance(0.7) {
            record.familyName = names[random.below(names.count)] + (random.chance(0.3) ? " Jr" : "")
        }
        if random.chance(0.2) { record.organizationName = "Analytical \(names[random.below(names.count)])" }
        if random.chance(0.1) { record.nickname = "e\u{301}cole" }
        return record
    }

    /// Every query answers as a scan of every contact does, and the index was used, not rebuilt.
    private func expectUsedAndAgreeing(_ store: JournaledStore<NoMetadata>, _ note: String) throws {
        let all = try store.load().contacts
        for text in Self.queries {
            let indexed = try ContactSearch.searchReportingIndex(store, .name(text))
            #expect(indexed.index == .used, "\(note): '\(text)'")
            #expect(indexed.contacts == ContactSearch.search(all, .name(text)), "\(note): '\(text)'")
        }
    }

    /// The index file as written, and as a search rebuilds it from the snapshot: the same header
    /// fields (their JSON order is Foundation's) and the same body, byte for byte.
    private func expectSameAsRebuilt(_ store: JournaledStore<NoMetadata>, _ note: String) throws {
        let path = store.path(of: ContactSearch.nameIndex)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .rebuilt(written: true), "\(note)")
        let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try IndexFile(written) == IndexFile(rebuilt), "\(note)")
    }

    @Test(
        "Across random adds, updates, deletes and compactions (seeded), each compaction leaves an index that is used and answers as a scan",
        arguments: [UInt64(11), 111, 1111])
    func compactionKeepsTheIndex(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let database = AppDatabase.searchable(appGroup: group.appGroup)
            let store = database.store
            try database.upsert((0..<40).map { contact("c-\($0)", &random) })
            try store.compact()
            try expectUsedAndAgreeing(store, "seed \(seed) first compaction")
            var compactions = 0
            for step in 0..<80 {
                let identifier = "c-\(random.below(70))"
                switch random.below(7) {
                case 0, 1: try store.append(upsert: [contact(identifier, &random)])
                case 2: try store.append(delete: [identifier])
                case 3:
                    try store.append(
                        upsert: [contact(identifier, &random)], delete: ["c-\(random.below(70))", "unknown-\(step)"])
                case 4, 5:
                    try store.compact()
                    compactions += 1
                    try expectUsedAndAgreeing(store, "seed \(seed) step \(step), after a compaction")
                default:
                    var added = contact("new-\(step)", &random)
                    added.givenName = "New"
                    try store.append(upsert: [added, contact("c-\(random.below(70))", &random)])
                }
                if step % 5 == 0 { try expectUsedAndAgreeing(store, "seed \(seed) step \(step)") }
            }
            try store.compact()
            try expectUsedAndAgreeing(store, "seed \(seed) end")
            try expectSameAsRebuilt(store, "seed \(seed) end")
            #expect(compactions > 5)
        }
    }

    @Test("A compaction derives keys only for the contacts that changed; the others' are carried from the old index")
    func unchangedKeysAreCarried() throws {
        try withTemporaryAppGroup { group in
            let counter = KeyCallCounter()
            let index = SearchIndex(fileName: "name-index", keysVersion: "name-1") { record in
                counter.record(record.identifier)
                return ContactSearch.nameIndex.keys(record)
            }
            let store = JournaledStore<NoMetadata>(directory: group.appGroup.contactsDirectory, derivedIndexes: [index])
            var random = SeededRandom(seed: 3)
            try store.append(upsert: (0..<50).map { contact("c-\($0)", &random) })
            try store.compact()
            // The first snapshot's contacts all came from the journal.
            #expect(counter.take().count == 50)
            try store.append(upsert: [contact("c-7", &random), contact("c-70", &random)])
            try store.append(delete: ["c-9"])
            #expect(counter.take().isEmpty, "an add or delete does not touch the index")
            try store.compact()
            #expect(counter.take().sorted() == ["c-7", "c-70"])
            try expectUsedAndAgreeing(store, "after the carrying compaction")
            try expectSameAsRebuilt(store, "after the carrying compaction")
        }
    }

    @Test(
        "Keys derived while the compaction reads the journal (two indexes, contacts upserted again and deleted) are the keys a rebuild derives"
    )
    func journalKeysOfTwoIndexes() throws {
        try withTemporaryAppGroup { group in
            // A second index whose keys are of another shape: none for some contacts, spaces and newlines inside.
            let other = SearchIndex(fileName: "other-index", keysVersion: "other-1") { record in
                record.givenName.hasPrefix("A") ? [] : [record.identifier, "x\ny  z", record.familyName]
            }
            let indexes = [ContactSearch.nameIndex, other]
            let store = JournaledStore<NoMetadata>(directory: group.appGroup.contactsDirectory, derivedIndexes: indexes)
            var random = SeededRandom(seed: 5)
            try store.append(upsert: (0..<20).map { contact("c-\($0)", &random) })
            try store.compact()
            try store.append(upsert: [contact("c-3", &random), contact("c-30", &random)])
            try store.append(upsert: [contact("c-3", &random), contact("c-31", &random)], delete: ["c-4"])
            try store.append(delete: ["c-31"])
            try store.append(upsert: [contact("c-30", &random)])
            try store.compact()
            for index in indexes {
                let path = store.path(of: index)
                let written = try Data(contentsOf: URL(fileURLWithPath: path))
                try FileManager.default.removeItem(atPath: path)
                let use = try store.search(index, candidate: { _ in true }, matches: { _ in true }).use
                #expect(use == .rebuilt(written: true), "\(index.fileName)")
                let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(try IndexFile(written) == IndexFile(rebuilt), "\(index.fileName)")
            }
        }
    }

    @Test("A compaction over a damaged or missing old index derives every contact's keys and writes a valid index")
    func compactionOverDamagedIndex() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase.searchable(appGroup: group.appGroup)
            let store = database.store
            var random = SeededRandom(seed: 4)
            try store.append(upsert: (0..<30).map { contact("c-\($0)", &random) })
            try store.compact()
            let path = store.path(of: ContactSearch.nameIndex)
            var damaged = try Data(contentsOf: URL(fileURLWithPath: path))
            damaged[damaged.count - 4] ^= 0x01
            try damaged.write(to: URL(fileURLWithPath: path))
            try store.append(upsert: [contact("c-3", &random)])
            try store.compact()
            try expectUsedAndAgreeing(store, "after a compaction over a damaged index")
            try FileManager.default.removeItem(atPath: path)
            try store.append(upsert: [contact("c-4", &random)])
            try store.compact()
            try expectUsedAndAgreeing(store, "after a compaction over a missing index")
            try expectSameAsRebuilt(store, "after a compaction over a missing index")
        }
    }

    @Test("A crash after the new snapshot but before its index leaves a stale index: detected, rebuilt, never wrong")
    func crashBeforeIndexWrite() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase.searchable(appGroup: group.appGroup)
            let store = database.store
            var random = SeededRandom(seed: 5)
            try store.append(upsert: (0..<30).map { contact("c-\($0)", &random) })
            try store.compact()
            let path = store.path(of: ContactSearch.nameIndex)
            let oldIndex = try Data(contentsOf: URL(fileURLWithPath: path))
            try store.append(upsert: [contact("c-1", &random), contact("c-99", &random)])
            try store.append(delete: ["c-2"])
            try store.compact()
            // The crash: the snapshot was renamed into place, the index write never happened.
            try oldIndex.write(to: URL(fileURLWithPath: path))
            #expect(try store.indexProblem(ContactSearch.nameIndex) == nil, "a stale index is not damage")
            let all = try store.load().contacts
            let first = try ContactSearch.searchReportingIndex(store, .name("ada"))
            #expect(first.index == .rebuilt(written: true))
            #expect(first.contacts == ContactSearch.search(all, .name("ada")))
            try expectUsedAndAgreeing(store, "after the rebuild")
        }
    }

    @Test("An index write cut short by a power loss (it is never fsynced) is reported by doctor and rebuilt")
    func tornIndexWrite() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase.searchable(appGroup: group.appGroup)
            let store = database.store
            var random = SeededRandom(seed: 6)
            try store.append(upsert: (0..<30).map { contact("c-\($0)", &random) })
            try store.compact()
            try expectUsedAndAgreeing(store, "after the compaction")
            let path = store.path(of: ContactSearch.nameIndex)
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            try written.prefix(written.count * 2 / 3).write(to: URL(fileURLWithPath: path))
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            #expect(try doctor.check().map(\.path) == [path])
            let all = try store.load().contacts
            let result = try ContactSearch.searchReportingIndex(store, .name("zoe"))
            #expect(result.index == .rebuilt(written: true))
            #expect(result.contacts == ContactSearch.search(all, .name("zoe")))
            #expect(try doctor.check().isEmpty)
            #expect(try IndexFile(Data(contentsOf: URL(fileURLWithPath: path))) == IndexFile(written))
        }
    }

    @Test("replaceAll and reset write the index of their snapshot")
    func replaceAllAndReset() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase.searchable(appGroup: group.appGroup)
            var random = SeededRandom(seed: 7)
            try database.replaceAll(with: (0..<25).map { contact("r-\($0)", &random) })
            try expectUsedAndAgreeing(database.store, "after replaceAll")
            try expectSameAsRebuilt(database.store, "after replaceAll")
            try database.reset()
            let afterReset = try ContactSearch.searchReportingIndex(database.store, .name("ada"))
            #expect(afterReset.contacts.isEmpty)
            #expect(afterReset.index == .used)
        }
    }

    @Test("contacts-host import (large enough to compact) writes the index: the first search uses it; doctor agrees")
    func importWritesTheIndex() async throws {
        try await withTemporaryAppGroup { group in
            var random = SeededRandom(seed: 8)
            // Past the 256 KiB journal that makes the import compact.
            let count = 2500
            let records = (0..<count).map { index -> ContactRecord in
                var record = contact("i-\(index)", &random)
                record.note = String(repeating: "n", count: 80)
                return record
            }
            let path = group.path + "/import.json"
            try JSONEncoder().encode(records).write(to: URL(fileURLWithPath: path))
            await HostRunner.inProcess.succeed(["import", path], in: group)
            let store = AppDatabase(appGroup: group.appGroup).store
            let snapshot = try String(contentsOfFile: store.snapshotPath, encoding: .utf8)
            #expect(snapshot.split(separator: "\n").count == count + 1, "the import compacted")
            try expectUsedAndAgreeing(store, "after the import")
            #expect(try AppGroupDoctor(appGroup: group.appGroup).check().isEmpty)
            // A second import over the first: updates carried through the next compaction.
            let updates = (0..<count).map { index -> ContactRecord in
                var record = records[index]
                if index % 3 == 0 { record.givenName = "Robert" }
                return record
            }
            try JSONEncoder().encode(updates).write(to: URL(fileURLWithPath: path))
            await HostRunner.inProcess.succeed(["import", path], in: group)
            try expectUsedAndAgreeing(store, "after the second import")
            try expectSameAsRebuilt(store, "after the second import")
        }
    }

    @Test("A store opened without the index registered still answers right: its first search rebuilds")
    func unregisteredStoreRebuilds() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 9)
            try store.append(upsert: (0..<20).map { contact("c-\($0)", &random) })
            try store.compact()
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .rebuilt(written: true))
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .used)
        }
    }
}
