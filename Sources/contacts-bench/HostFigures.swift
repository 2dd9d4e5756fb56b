import AppGroupStore
import ContactProviderSystem
import ContactsInterop
import Foundation
import Glibc

/// The app's own commands at one database size: I1 `import` of N contacts (time and the host's peak
/// memory), I2 the same in the seed demo's format, G1 `get ID`, Q1 `search --name` (library and CLI) and Q2 the first search after a compaction. With `alsoStatusAndAdd` (the
/// `--host-only` run, which skips the sync figures) it measures S1 `status` and P1 one add too.
final class HostRun {
    /// The figures this run measures (for `--only`).
    static let figureNames: Set<String> = ["I1", "I2", "X1", "G1", "Q1", "Q2", "S1"]

    let n: Int
    let products: String
    let cliRuns: Int
    let libraryRuns: Int
    let alsoStatusAndAdd: Bool
    /// `--only`: nil measures every figure; a set naming none of I2, G1, Q1, Q2 stops after I1
    /// (whose import the others read).
    let only: Set<String>?
    let log: (String) -> Void
    var figures: [Figure] = []

    init(
        n: Int, products: String, cliRuns: Int, libraryRuns: Int, alsoStatusAndAdd: Bool, only: Set<String>? = nil,
        log: @escaping (String) -> Void
    ) {
        self.only = only
        self.n = n
        self.products = products
        self.cliRuns = cliRuns
        self.libraryRuns = libraryRuns
        self.alsoStatusAndAdd = alsoStatusAndAdd
        self.log = log
    }

    /// One contact in the seed demo's `ContactItems.json` format.
    private struct SeedItem: Encodable {
        var identifier: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var emailAddress: String?
    }

    /// Writes SizeRun's contacts as a JSON array (as `list --json` would), a slice at a time; with
    /// `seedFormat`, the same contacts (the same identifiers, names, first phone and email) in the
    /// seed demo's format, so I2 and I1 import like for like.
    func writeImportFile(_ path: String, seedFormat: Bool = false) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw BenchError("cannot create \(path)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let encoder = JSONEncoder()
        var first = true
        handle.write(Data("[".utf8))
        let all = SizeRun.records(n)
        for start in stride(from: 0, to: n, by: 10_000) {
            let slice = Array(all[start..<min(start + 10_000, n)])
            let data =
                seedFormat
                ? try encoder.encode(
                    slice.map {
                        SeedItem(
                            identifier: $0.identifier, firstName: $0.givenName, lastName: $0.familyName,
                            phoneNumber: $0.phoneNumbers.first?.value, emailAddress: $0.emailAddresses.first?.value)
                    }) : try encoder.encode(slice)
            if !first { handle.write(Data(",\n".utf8)) }
            first = false
            handle.write(data.dropFirst().dropLast())
        }
        handle.write(Data("]\n".utf8))
    }

    func run() throws -> [Figure] {
        let group = AppGroup(path: NSTemporaryDirectory() + "/cps-bench-host-\(n)-\(UUID().uuidString.prefix(8))")
        try group.ensureExists()
        defer { try? FileManager.default.removeItem(atPath: group.path) }
        var environment = ProcessInfo.processInfo.environment
        environment[AppGroup.environmentVariable] = group.path
        let host = products + "/contacts-host"
        let file = group.path + "/import.json"
        log("n=\(n): host figures: writing the import file")
        try writeImportFile(file)

        // I1: one import into an empty database (the figure includes the compaction that follows it).
        log("n=\(n): I1 import")
        let peakFile = group.path + "/host-peak-rss"
        var importEnvironment = environment
        importEnvironment["CONTACTS_HOST_PEAK_RSS_FILE"] = peakFile
        // Each import starts on a flushed disk (`sync`, not timed), as P3's figures do: the file
        // was just written (225 MB at 1M), and its writeback would be counted in the import.
        Glibc.sync()
        let imported = try Measure.spawn([host, "import", file], environment: importEnvironment)
        guard imported.exitCode == 0 else {
            throw BenchError("contacts-host import failed (exit \(imported.exitCode))")
        }
        let peakText = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        let importPeak = (peakText.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        figures.append(
            Figure(
                id: "I1", path: "cli", n: n, medianMs: imported.milliseconds, peakRSSBytes: importPeak,
                note:
                    "contacts-host import of a JSON array of N contacts into an empty database (one run); peak RSS = host"
            ))
        unlink(file)
        if only?.contains("X1") ?? true {
            log("n=\(n): X1 export")
            figures.append(try exportFigure(host: host, environment: importEnvironment, peakFile: peakFile))
        }
        guard !(only.map { $0.isDisjoint(with: ["I2", "G1", "Q1", "Q2"]) } ?? false) else { return figures }

        // I2: the seed demo's own format (`ContactItems.json`, what `seed-json` providers keep), the
        // same N into another empty database, in the same run (issue 27, item 1: within 1.5× of I1).
        log("n=\(n): I2 import of the seed format")
        let seedGroup = AppGroup(path: group.path + "/seed-format-group")
        try seedGroup.ensureExists()
        let seedFile = group.path + "/ContactItems.json"
        try writeImportFile(seedFile, seedFormat: true)
        var seedEnvironment = importEnvironment
        seedEnvironment[AppGroup.environmentVariable] = seedGroup.path
        Glibc.sync()
        let seedImported = try Measure.spawn([host, "import", seedFile], environment: seedEnvironment)
        guard seedImported.exitCode == 0 else {
            throw BenchError("contacts-host import of the seed format failed (exit \(seedImported.exitCode))")
        }
        let seedPeakText = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        let seedPeak = (seedPeakText.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        figures.append(
            Figure(
                id: "I2", path: "cli", n: n, medianMs: seedImported.milliseconds, peakRSSBytes: seedPeak,
                note: String(
                    format:
                        "contacts-host import of the seed demo's ContactItems.json format (I1's contacts: identifiers, names, a phone, an email) into an empty database (one run); %.2f× I1 in this run; peak RSS = host",
                    seedImported.milliseconds / max(imported.milliseconds, 0.001))))
        unlink(seedFile)
        try? FileManager.default.removeItem(atPath: seedGroup.path)

        let database = AppDatabase.searchable(appGroup: group)
        var random = SystemRandomNumberGenerator()
        func someIdentifier() -> String { "p-\(String(format: "%07d", Int.random(in: 0..<n, using: &random)))" }

        // G1: get one contact by identifier.
        log("n=\(n): G1 get")
        var gets: [Double] = []
        for _ in 0..<libraryRuns {
            let identifier = someIdentifier()
            gets.append(
                try Measure.milliseconds {
                    guard try database.get(identifier) != nil else {
                        throw BenchError("get \(identifier) found nothing")
                    }
                })
        }
        figures.append(Figure(id: "G1", path: "library", n: n, medianMs: Measure.median(gets), note: "AppDatabase.get"))
        var cliGets: [Double] = []
        for _ in 0..<cliRuns {
            let run = try Measure.spawn([host, "get", someIdentifier()], environment: environment)
            guard run.exitCode == 0 else { throw BenchError("contacts-host get failed (exit \(run.exitCode))") }
            cliGets.append(run.milliseconds)
        }
        figures.append(
            Figure(id: "G1", path: "cli", n: n, medianMs: Measure.median(cliGets), note: "contacts-host get ID"))

        // Q1: search --name for one contact's given and family name; the first search after the
        // import builds the name index (reported as the reference), the rest use it.
        log("n=\(n): Q1 search --name")
        let store = database.store
        func query() -> (text: String, index: Int) {
            let index = Int.random(in: 0..<n, using: &random)
            return ("given\(index) family\(index % 97)", index)
        }
        // The import compacted and wrote the name index with its snapshot: the first search uses it.
        var firstUse: SearchIndexUse?
        let build = try Measure.milliseconds {
            firstUse = try ContactSearch.searchReportingIndex(store, .name(query().text)).index
        }
        var searches: [Double] = []
        for _ in 0..<max(3, libraryRuns / 10) {
            let (text, _) = query()
            searches.append(
                try Measure.milliseconds {
                    guard try ContactSearch.search(store, .name(text)).count >= 1 else {
                        throw BenchError("search '\(text)' found nothing")
                    }
                })
        }
        figures.append(
            Figure(
                id: "Q1", path: "library", n: n, medianMs: Measure.median(searches), referenceMs: build,
                note: "ContactSearch.search(store, .name); reference = the first search after the import (index "
                    + (firstUse == .used
                        ? "written with the snapshot: name index used, no rebuild"
                        : "rebuilt: \(String(describing: firstUse))") + ")"))
        var cliSearches: [Double] = []
        for _ in 0..<cliRuns {
            let run = try Measure.spawn([host, "search", "--name", query().text], environment: environment)
            guard run.exitCode == 0 else { throw BenchError("contacts-host search failed (exit \(run.exitCode))") }
            cliSearches.append(run.milliseconds)
        }
        figures.append(
            Figure(
                id: "Q1", path: "cli", n: n, medianMs: Measure.median(cliSearches), note: "contacts-host search --name")
        )

        try measureFirstSearchAfterCompaction(database)

        guard alsoStatusAndAdd else { return figures }
        log("n=\(n): S1 status, P1 add")
        let client = try SystemClient(appGroup: group, domain: "defaultDomain")
        try client.enable(extensionPath: products + "/demo-provider")
        var statuses: [Double] = []
        for _ in 0..<cliRuns {
            let run = try Measure.spawn([host, "status"], environment: environment)
            guard run.exitCode == 0 else { throw BenchError("contacts-host status failed (exit \(run.exitCode))") }
            statuses.append(run.milliseconds)
        }
        figures.append(
            Figure(id: "S1", path: "cli", n: n, medianMs: Measure.median(statuses), note: "contacts-host status"))
        var adds: [Double] = []
        for index in 0..<libraryRuns {
            var record = ContactRecord(identifier: "")
            record.givenName = "Added\(index)"
            adds.append(try Measure.milliseconds { try database.add(record) })
        }
        figures.append(Figure(id: "P1", path: "library", n: n, medianMs: Measure.median(adds), note: "AppDatabase.add"))
        var cliAdds: [Double] = []
        for index in 0..<cliRuns {
            let run = try Measure.spawn([host, "add", "--given-name", "Cli\(index)"], environment: environment)
            guard run.exitCode == 0 else { throw BenchError("contacts-host add failed (exit \(run.exitCode))") }
            cliAdds.append(run.milliseconds)
        }
        figures.append(
            Figure(id: "P1", path: "cli", n: n, medianMs: Measure.median(cliAdds), note: "contacts-host add"))
        return figures
    }

    /// Q2: the first `search --name` after a compaction (one added contact, then `compact()`, which
    /// writes the name index for the new snapshot): as fast as any other search when the index is
    /// kept incrementally, a whole rebuild otherwise. Reference = the compaction itself.
    private func measureFirstSearchAfterCompaction(_ database: AppDatabase) throws {
        log("n=\(n): Q2 first search after a compaction")
        let store = database.store
        var firstSearches: [Double] = []
        var compactions: [Double] = []
        for round in 0..<3 {
            var record = ContactRecord(identifier: "")
            record.givenName = "Compacted\(round)"
            try database.add(record)
            compactions.append(try Measure.milliseconds { try store.compact() })
            var use: SearchIndexUse?
            firstSearches.append(
                try Measure.milliseconds {
                    let result = try ContactSearch.searchReportingIndex(store, .name("compacted\(round)"))
                    guard result.contacts.count == 1 else {
                        throw BenchError("search 'compacted\(round)' found nothing")
                    }
                    use = result.index
                })
            guard use == .used else {
                throw BenchError(
                    "the first search after a compaction rebuilt the name index (\(String(describing: use)))")
            }
        }
        figures.append(
            Figure(
                id: "Q2", path: "library", n: n, medianMs: Measure.median(firstSearches),
                referenceMs: Measure.median(compactions),
                note: "first ContactSearch.search(store, .name) after add + compact(); reference = the compaction"))
    }
}
