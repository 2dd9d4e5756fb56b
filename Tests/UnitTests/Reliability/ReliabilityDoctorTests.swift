import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import ContactsHostKit
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10, item 6: the doctor on every corruption the store fuzzer produces.
@Suite("Reliability: doctor --repair on fuzzed corruptions (the store opens, nothing valid is lost)")
struct ReliabilityDoctorTests {
    /// The complete (newline-terminated) lines of `data`.
    static func completeLines(_ data: Data?) -> [Data] {
        guard let data, let last = data.lastIndex(of: 0x0A) else { return [] }
        return data[..<last].split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
    }

    /// The contacts that must survive a repair, with their values: those whose defining line (the last
    /// line of the template that mentions them) is still, byte for byte, the last line that mentions them.
    static func mustSurvive(
        template: (snapshot: Data, journal: Data), damaged: (snapshot: Data?, journal: Data?), final: [ContactRecord]
    ) throws -> [ContactRecord] {
        let before = Array(completeLines(template.snapshot).dropFirst()) + completeLines(template.journal).dropFirst()
        let after = Array(completeLines(damaged.snapshot)) + completeLines(damaged.journal)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try final.filter { record in
            let needle = try encoder.encode(record.identifier)
            guard let defining = before.last(where: { $0.range(of: needle) != nil }) else { return false }
            return after.last(where: { $0.range(of: needle) != nil }) == defining
        }
    }

    @Test(
        "App database: doctor reports every unreadable corruption; --repair opens the store and keeps every intact contact"
    )
    func appDatabase() throws {
        try withTemporaryAppGroup { group in
            let seed = TestScale.seed
            let template = try ReliabilityStoreFuzzTests.appTemplate(in: group.path + "/template", count: 120)
            let final = try AppDatabase(appGroup: AppGroup(path: group.path + "/template")).all()
            var repaired = 0
            var kept = 0
            var required = 0
            let result = try ReliabilityFuzzBudget(cases: 150, seconds: 3).run { index in
                var random = SeededRandom.forCase(index, seed: seed)
                let appGroup = AppGroup(path: group.path + "/case-\(index)")
                defer { try? FileManager.default.removeItem(atPath: appGroup.path) }
                let database = AppDatabase(appGroup: appGroup)
                let store = database.store
                try SecureFile.ensureDirectory(store.directory)
                let kind = random.pick(ReliabilityCorruption.allCases)
                let targetIsJournal = random.chance(0.5)
                var snapshot: Data? = template.snapshot
                var journal: Data? = template.journal
                if targetIsJournal {
                    journal = Data(kind.apply(to: Array(template.journal), &random))
                } else if random.chance(0.1) {
                    snapshot = nil  // a missing snapshot
                } else {
                    snapshot = Data(kind.apply(to: Array(template.snapshot), &random))
                }
                if let snapshot { try SecureFile.replace(store.snapshotPath, with: snapshot, durable: false) }
                if let journal { try SecureFile.replace(store.journalPath, with: journal, durable: false) }
                let context =
                    "seed \(seed) case \(index): \(kind.rawValue) of \(targetIsJournal ? "journal" : "snapshot")"
                let doctor = AppGroupDoctor(appGroup: appGroup)

                let loadFailed = (try? store.load()) == nil
                let problems = try doctor.check()
                if loadFailed { #expect(!problems.isEmpty, "\(context): load fails but the doctor found nothing") }
                for problem in problems {
                    #expect(problem.path.hasPrefix(appGroup.path + "/"), "\(context): \(problem)")
                }
                let salvaged = try store.salvage().contacts
                let report = try doctor.repair()
                #expect(report.remaining.isEmpty, "\(context): still damaged after repair: \(report.remaining)")
                let after: [ContactRecord]
                do {
                    after = try database.all()
                } catch {
                    Issue.record("\(context): the repaired store does not open: \(error)")
                    return
                }
                if !problems.isEmpty { repaired += 1 }
                #expect(
                    after.sorted { IdentifierOrder.precedes($0.identifier, $1.identifier) } == salvaged,
                    "\(context): the repair kept something else than the salvage")
                let survivors = try Self.mustSurvive(
                    template: (template.snapshot, template.journal), damaged: (snapshot, journal), final: final)
                required += survivors.count
                let byIdentifier = Dictionary(after.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
                for record in survivors {
                    #expect(
                        byIdentifier[record.identifier] == record,
                        "\(context): intact contact \(record.identifier) lost or changed")
                }
                kept += after.count
                // Nothing was deleted: every damaged file is still there, moved aside.
                if !problems.isEmpty {
                    let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
                    #expect(names.contains { $0.contains(".damaged-") }, "\(context): \(names)")
                }
                // The repaired store takes writes.
                try database.add(StoreFixtures.contact("after-repair-\(index)"))
                #expect(try doctor.check().isEmpty, "\(context)")
            }
            #expect(result.cases > 0)
            #expect(repaired > 0, "the corruptions should need some repairs")
            print(
                "doctor: app database, \(result.cases) cases, \(repaired) repaired, \(required) intact contacts required and kept, \(kept) kept in all, seed \(seed)"
            )
        }
    }

    @Test("System store: a damaged one is moved aside and reset to a full content enumeration")
    func systemStore() throws {
        try withTemporaryAppGroup { group in
            let seed = TestScale.seed
            let template = try ReliabilityStoreFuzzTests.systemTemplate(in: group.path + "/template")
            var repaired = 0
            let result = try ReliabilityFuzzBudget(cases: 100, seconds: 2).run { index in
                var random = SeededRandom.forCase(index, seed: seed)
                let appGroup = AppGroup(path: group.path + "/case-\(index)")
                defer { try? FileManager.default.removeItem(atPath: appGroup.path) }
                let paths = try DomainPaths(appGroup: appGroup, domain: "defaultDomain")
                try SecureFile.ensureDirectory(paths.systemStore)
                let store = SystemStore(directory: paths.systemStore)
                let kind = random.pick(ReliabilityCorruption.allCases)
                let targetIsJournal = random.chance(0.5)
                let snapshot =
                    targetIsJournal ? template.snapshot : Data(kind.apply(to: Array(template.snapshot), &random))
                let journal =
                    targetIsJournal ? Data(kind.apply(to: Array(template.journal), &random)) : template.journal
                try SecureFile.replace(store.snapshotPath, with: snapshot, durable: false)
                try SecureFile.replace(store.journalPath, with: journal, durable: false)
                let context =
                    "seed \(seed) case \(index): \(kind.rawValue) of \(targetIsJournal ? "journal" : "snapshot")"
                let doctor = AppGroupDoctor(appGroup: appGroup)
                let before = try? store.load()
                let problems = try doctor.check()
                if before == nil { #expect(!problems.isEmpty, "\(context)") }
                let report = try doctor.repair()
                #expect(report.remaining.isEmpty, "\(context): \(report.remaining)")
                let state = try store.load()
                if problems.isEmpty {
                    #expect(state.count == before?.count, "\(context): a sound system store was changed")
                } else {
                    repaired += 1
                    #expect(
                        state.count == 0 && state.meta == .initial,
                        "\(context): not reset to a full content enumeration")
                    let names = try FileManager.default.contentsOfDirectory(atPath: paths.systemStore)
                    #expect(names.filter { $0.contains(".damaged-") }.count == 2, "\(context): \(names)")
                    #expect(report.lines.contains { $0.contains("full content enumeration") }, "\(context)")
                }
            }
            #expect(result.cases > 0 && repaired > 0)
            print("doctor: system store, \(result.cases) cases, \(repaired) dropped and reset, seed \(seed)")
        }
    }

    @Test("Domain configuration, pipes and temp files: reported with their paths, and repaired without touching data")
    func otherFiles() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("kept"))
            let paths = try DomainPaths(appGroup: group.appGroup, domain: "defaultDomain")
            try paths.ensureDirectories()
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            #expect(try doctor.check().isEmpty)

            try SecureFile.replace(paths.configuration, with: Data("{\"enabled\": tru".utf8), durable: false)
            try SecureFile.ensureDirectory(paths.repliesDirectory)
            let stalePipe = paths.repliesDirectory + "/0A1B.fifo"
            #expect(mkfifo(stalePipe, 0o600) == 0)
            try SecureFile.replace(paths.requests, with: Data("not a pipe".utf8), durable: false)
            let temp = database.store.directory + "/.snapshot.jsonl.tmp-999999999-1"
            try SecureFile.replace(temp, with: Data("partial".utf8), durable: false)

            let problems = try doctor.check().map(\.description)
            #expect(problems.contains { $0.hasPrefix(paths.configuration + ":1: ") }, "\(problems)")
            #expect(problems.contains { $0.hasPrefix(stalePipe + ": a stale pipe") }, "\(problems)")
            #expect(problems.contains { $0.hasPrefix(paths.requests + ": not a named pipe") }, "\(problems)")
            #expect(problems.contains { $0.hasPrefix(temp + ": a temp file") }, "\(problems)")
            #expect(problems.count == 4, "\(problems)")

            let report = try doctor.repair()
            #expect(report.remaining.isEmpty, "\(report.remaining)")
            #expect(try doctor.check().isEmpty)
            #expect(try database.all().map(\.identifier) == ["kept"])
            let domainFiles = try FileManager.default.contentsOfDirectory(atPath: paths.domainDirectory)
            #expect(domainFiles.contains { $0.hasPrefix("domain.json.damaged-") }, "\(domainFiles)")
            #expect(!FileManager.default.fileExists(atPath: stalePipe))
        }
    }

    @Test("A store of a newer format version is reported, and --repair refuses to rewrite it")
    func newerFormatIsNotRepaired() throws {
        try withTemporaryAppGroup { group in
            let database = AppDatabase(appGroup: group.appGroup)
            try database.add(StoreFixtures.contact("a"))
            let store = database.store
            let snapshot = try StoreFixtures.bytes(store.snapshotPath)
            let newer = Data(
                String(decoding: snapshot, as: UTF8.self).replacingOccurrences(of: #""format":1"#, with: #""format":2"#)
                    .utf8)
            try SecureFile.replace(store.snapshotPath, with: newer, durable: false)
            let doctor = AppGroupDoctor(appGroup: group.appGroup)
            let problems = try doctor.check().map(\.description)
            #expect(problems.contains { $0.hasPrefix(store.snapshotPath + ":1: format version 2") }, "\(problems)")
            #expect(throws: StoreError.unsupportedFormat(path: store.snapshotPath, version: 2)) {
                _ = try doctor.repair()
            }
            #expect(try StoreFixtures.bytes(store.snapshotPath) == newer)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: store.directory).allSatisfy {
                    !$0.contains(".damaged-")
                })
        }
    }
}
