import AppGroupStore
import ContactProviderTesting
import ContactsHostKit
import ContactsInterop
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Name search through the name index agrees with a scan of every contact")
struct NameIndexSearchTests {
    static let names = [
        "Ada", "Adam", "Zoë", "Zoe", "Émile", "Lovelace", "Love", "Ōsaka", "ÅSA", "Bob", "Robert", "Li", "李", "Müller",
    ]

    private func contact(_ identifier: String, _ random: inout SeededRandom) -> ContactRecord {
        var record = ContactRecord(identifier: identifier)
        record.givenName = Self.names[random.below(Self.names.count)]
        if random.chance(0.7) {
            record.familyName = Self.names[random.below(Self.names.count)] + (random.chance(0.3) ? " Jr" : "")
        }
        if random.chance(0.2) { record.organizationName = "Analytical \(Self.names[random.below(Self.names.count)])" }
        if random.chance(0.1) { record.nickname = "e\u{301}cole" }
        return record
    }

    private func expectAgreement(_ store: JournaledStore<NoMetadata>, _ note: String) throws {
        let all = try store.load().contacts
        for text in [
            "ada", "ad lov", "zoe", "ZOË", "émi", "emile", "osa", "åsa", "li", "李", "jr", "analytical a", "école",
            "ecole", "mull", "x", "rob ada",
        ] {
            let indexed = try ContactSearch.search(store, .name(text))
            let scanned = ContactSearch.search(all, .name(text))
            #expect(indexed == scanned, "\(note): '\(text)'")
        }
    }

    @Test(
        "Across random adds, updates, deletes and compactions (seeded), every query answers as a scan does",
        arguments: [UInt64(7), 77, 777])
    func randomOperations(seed: UInt64) throws {
        try withTemporaryAppGroup { group in
            var random = SeededRandom(seed: seed)
            let database = AppDatabase(appGroup: group.appGroup)
            let store = database.store
            try database.upsert((0..<40).map { contact("c-\($0)", &random) })
            try store.compact()
            for step in 0..<60 {
                let identifier = "c-\(random.below(60))"
                switch random.below(6) {
                case 0, 1: try store.append(upsert: [contact(identifier, &random)])
                case 2: try store.append(delete: [identifier])
                case 3:
                    try store.append(
                        upsert: [contact(identifier, &random)], delete: ["c-\(random.below(60))", "unknown-\(step)"])
                case 4: try store.compact()
                default:
                    try store.append(upsert: [contact(identifier, &random), contact("c-\(random.below(60))", &random)])
                }
                if step % 6 == 0 { try expectAgreement(store, "seed \(seed) step \(step)") }
            }
            try expectAgreement(store, "seed \(seed) end")
        }
    }

    @Test("The index is built once per snapshot, reused, and rebuilt after a compaction")
    func builtOnceReused() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 1)
            try store.append(upsert: (0..<20).map { contact("c-\($0)", &random) })
            try store.compact()
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .rebuilt(written: true))
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .used)
            try store.append(upsert: [contact("new", &random)])
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .used)
            try store.compact()
            #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .rebuilt(written: true))
            #expect(try store.indexProblem(ContactSearch.nameIndex) == nil)
        }
    }

    @Test("A damaged index is detected (doctor's check), rebuilt, and never changes an answer")
    func damagedIndex() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 2)
            try store.append(upsert: (0..<30).map { contact("c-\($0)", &random) })
            try store.compact()
            let expected = ContactSearch.search(try store.load().contacts, .name("ada"))
            #expect(try ContactSearch.search(store, .name("ada")) == expected)
            let path = store.path(of: ContactSearch.nameIndex)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            // Every kind of damage: a flipped byte in the body, a cut, an emptied file, a changed header.
            var flipped = original
            flipped[flipped.count - 3] ^= 0x01
            let damages = [flipped, original.dropLast(10), Data(), Data("{}\n".utf8) + original]
            for damage in damages {
                try damage.write(to: URL(fileURLWithPath: path))
                if !damage.isEmpty { #expect(try store.indexProblem(ContactSearch.nameIndex) != nil) }
                let result = try ContactSearch.searchReportingIndex(store, .name("ada"))
                #expect(result.contacts == expected)
                #expect(result.index == .rebuilt(written: true))
                #expect(try store.indexProblem(ContactSearch.nameIndex) == nil)
            }
        }
    }

    @Test("doctor reports a damaged index and --repair removes it; the contacts are untouched")
    func doctorKnowsTheIndex() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 5)
            try store.append(upsert: (0..<10).map { contact("c-\($0)", &random) })
            try store.compact()
            _ = try ContactSearch.search(store, .name("a"))
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            #expect(try doctor.check().isEmpty)
            let path = store.path(of: ContactSearch.nameIndex)
            try Data("{\"format\":1}\nx\n".utf8).write(to: URL(fileURLWithPath: path))
            let problems = try doctor.check()
            #expect(problems.map(\.path) == [path])
            #expect(problems.first?.message.contains("doctor --repair") == true)
            let snapshot = try StoreFixtures.bytes(store.snapshotPath)
            let report = try doctor.repair()
            #expect(report.lines.contains { $0.contains("removed damaged search index") })
            #expect(report.remaining.isEmpty)
            #expect(try StoreFixtures.bytes(store.snapshotPath) == snapshot)
            #expect(
                try ContactSearch.search(store, .name("a"))
                    == ContactSearch.search(try store.load().contacts, .name("a")))
        }
    }

    @Test("An index that passes its checks but points at the wrong bytes is not believed: the answer comes from a scan")
    func forgedIndex() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 3)
            try store.append(upsert: (0..<10).map { contact("c-\($0)", &random) })
            try store.compact()
            _ = try ContactSearch.search(store, .name("ada"))
            let path = store.path(of: ContactSearch.nameIndex)
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // Every contact claims every name, at an offset inside a line; then re-sign it.
            for index in 1..<(lines.count - 1) {
                let offset = Int(lines[index].split(separator: " ")[0])! + 3
                lines[index] = "\(offset) " + ContactSearchTestNames.all
            }
            let body = Data(lines[1...].joined(separator: "\n").utf8)
            var header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
            header["checksum"] = fnv(body)
            let forged = try JSONSerialization.data(withJSONObject: header) + Data("\n".utf8) + body
            try forged.write(to: URL(fileURLWithPath: path))
            #expect(try store.indexProblem(ContactSearch.nameIndex) == nil)
            let expected = ContactSearch.search(try store.load().contacts, .name("ada"))
            #expect(try ContactSearch.search(store, .name("ada")) == expected)
        }
    }

    @Test("A read-only store is searched with an index built in memory")
    func readOnly() throws {
        try withTemporaryAppGroup { group in
            let store = AppDatabase(appGroup: group.appGroup).store
            var random = SeededRandom(seed: 4)
            try store.append(upsert: (0..<10).map { contact("c-\($0)", &random) })
            try store.compact()
            guard getuid() != 0 else {
                // root writes through permissions; the write failure path is covered by `written: false` below.
                #expect(try ContactSearch.searchReportingIndex(store, .name("a")).index == .rebuilt(written: true))
                return
            }
            chmod(store.directory, 0o500)
            defer { chmod(store.directory, 0o700) }
            let result = try ContactSearch.searchReportingIndex(store, .name("a"))
            #expect(result.index == .rebuilt(written: false))
            #expect(result.contacts == ContactSearch.search(try store.load().contacts, .name("a")))
        }
    }

    private func fnv(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}

enum ContactSearchTestNames {
    static let all = "ada adam zoe zoë emile lovelace"
}
