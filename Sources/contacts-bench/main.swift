// contacts-bench: sync cost against the size of the address book, beside the seed demo's naive design.
//
//   swift build -c release && swift run -c release contacts-bench [--contacts 1000,100000] [--json] [--quick] [--carddav N]
//       [--record FILE]   (the run as data: command, machine, date, build configuration and figures)
//   A debug build's figures (what `swift build` gives): swift run contacts-bench … (the record says "debug").
//   (--contacts 1000,1000000 is the opt-in million-contact run: minutes, not part of `swift test`)
//   --goals: every goal of issues 27, 43 and 44 in one run (1k, 100k and 1M; the debug figures from the debug
//       build's bench, `swift build` first), quiet and then loaded: a verdict per goal and variant, printed and recorded.
import Foundation
import Glibc

signal(SIGPIPE, SIG_IGN)
var sizes = [1_000, 100_000]
var json = false
var quick = false
/// `--host-only`: only the app's own commands (import, get, search, status, add), not the sync figures.
var hostOnly = false
/// `--carddav N`: also measure the CardDAV example against a Radicale holding N cards (needs Radicale: opt-in).
var carddavCards: Int?
/// `--only P3,P4`: measure just these figures.
var only: Set<String>?
/// `--record FILE`: also write the run as a data file (``BenchmarkRecord``).
var recordPath: String?
/// `--goals`: every goal of issue 27 judged in one run (``Goals``).
var goals = false
/// `--debug-bench PATH`: the debug build's bench that measures the goals' debug figures.
var debugBench: String?
var sizesGiven = false
var arguments = Array(CommandLine.arguments.dropFirst())
/// The value after option `name` (a path), taken from `arguments`; a usage error when there is none.
func takeValue(_ name: String, _ what: String, from arguments: inout [String]) -> String {
    guard let value = arguments.first, !value.hasPrefix("--") else {
        FileHandle.standardError.write(Data("error: \(name) expects \(what)\n".utf8))
        exit(2)
    }
    arguments.removeFirst()
    return value
}
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--json": json = true
    case "--record": recordPath = takeValue(argument, "FILE", from: &arguments)
    case "--quick": quick = true
    case "--goals": goals = true
    case "--expect-configuration":
        // A goals run's child: its figures are labelled with this build's configuration, so it must be that one.
        guard let expected = arguments.first, expected == BenchmarkRecord.configuration else {
            FileHandle.standardError.write(
                Data(
                    "error: this contacts-bench is a \(BenchmarkRecord.configuration) build, not \(arguments.first ?? "?")\n"
                        .utf8))
            exit(2)
        }
        arguments.removeFirst()
    case "--debug-bench": debugBench = takeValue(argument, "PATH", from: &arguments)
    case "--judge":
        // Judges a recorded run's figures again and prints the verdicts as JSON (`BenchmarkSmokeTests`
        // checks that a goals run's recorded verdicts follow from its figures).
        let path = takeValue(argument, "FILE", from: &arguments)
        do {
            let record = try JSONDecoder().decode(
                BenchmarkRecord.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(Goals(figures: record.figures).judge()), as: UTF8.self))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("error: cannot judge \(path): \(error)\n".utf8))
            exit(1)
        }
    case "--host-only": hostOnly = true
    case "--carddav":
        guard let value = arguments.first.flatMap({ Int($0) }), value > 0 else {
            FileHandle.standardError.write(
                Data("error: --carddav expects N (a positive number of server cards)\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        carddavCards = value
    case "--only":
        let parsed = Set(arguments.first.map { $0.split(separator: ",").map(String.init) } ?? [])
        let known = Set(["P1", "P2", "P3", "P4", "P5", "P7", "P8", "P9", "S2"]).union(HostRun.figureNames)
        guard !parsed.isEmpty, parsed.isSubset(of: known) else {
            FileHandle.standardError.write(
                Data("error: --only expects figures among \(known.sorted().joined(separator: ","))\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        only = parsed
    case "--contacts":
        let parsed = arguments.first.map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 > 0 }) else {
            FileHandle.standardError.write(Data("error: --contacts expects N or N,M,… (positive integers)\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        sizes = parsed
        sizesGiven = true
    case "-h", "--help":
        print(
            """
            USAGE: contacts-bench [--contacts N[,M…]] [--only P3,P4] [--host-only] [--json] [--quick] [--carddav N]
                                  [--record FILE] [--goals [--debug-bench PATH]] [--judge FILE]

            Measures P1–P8, I1, I2, G1, Q1, Q2, S1 (see docs/benchmarks.md) at each size; --only measures just the figures named;
            --host-only measures only the app's own commands (I1 import, I2 the seed format's import, G1 get, Q1 search, Q2 first search
            after a compaction, S1 status, P1 add);
            --quick uses few repetitions (a smoke run);
            --carddav N adds C1/C2: the carddav-provider example syncing N cards from a Radicale it starts;
            --goals judges every goal of issues 27, 43 and 44 in one run: 1k, 100k and 1M unless --contacts says otherwise, P5 three
            times, P7 on a provider with O(n) pages too, and the debug figures from the debug build's bench (default: beside this
            one under .build/debug; build it with 'swift build' first); then all of it again while a busy process runs on every
            processor (the loaded variant: paths end in -loaded), and each goal is judged on both;
            --judge FILE judges a recorded run's figures again and prints the verdicts (JSON).
            """)
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument '\(argument)'\n".utf8))
        exit(2)
    }
}

let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let products = (executable as NSString).deletingLastPathComponent
for product in ["contacts-host", "demo-provider", "seed-demo-provider", "bench-floor"]
where access(products + "/" + product, X_OK) != 0 {
    FileHandle.standardError.write(
        Data("error: \(products)/\(product) is missing; run 'swift build -c release' first\n".utf8))
    exit(1)
}
let log: (String) -> Void = { FileHandle.standardError.write(Data("… \($0)\n".utf8)) }
if goals, !sizesGiven { sizes = [1_000, 100_000, 1_000_000] }
// The debug build's bench, found before anything is measured: a goals run that cannot finish
// should say so at once, not after minutes.
let debugBenchPath = debugBench ?? (products as NSString).deletingLastPathComponent + "/debug/contacts-bench"
if goals, access(debugBenchPath, X_OK) != 0 {
    FileHandle.standardError.write(
        Data(
            "error: --goals measures the debug figures with the debug build's bench, and \(debugBenchPath) is missing; run 'swift build' first (or give --debug-bench PATH)\n"
                .utf8))
    exit(1)
}

var repetitions = SizeRun.Repetitions()
if quick {
    repetitions = SizeRun.Repetitions(libraryAdds: 5, cliRuns: 2, signals: 3, fullSyncs: 1, naiveAdds: 2, idleRuns: 2)
}
// P3's SQLite reference (issue 44, item 4), found before anything is measured.
let sqlite: SQLiteReference?
do {
    sqlite = hostOnly || !(only?.contains("P3") ?? true) ? nil : try SQLiteReference.locate(products: products)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

/// Every figure asked for, measured once: on the machine as it is, or (`load`, a goals run's loaded
/// variant) while a busy process runs on every processor, when each figure's path gets `-loaded`
/// and its note says so (issue 44, item 6: every goal judged on both).
@MainActor
func measureFigures(load: BusyProcessors?) async throws -> [Figure] {
    var figures: [Figure] = []
    for n in sizes {
        // Large sizes (opt-in, such as 1000000) take fewer repetitions: each full sync is seconds long.
        var sized = repetitions
        if n > SizeRun.naiveLimit, !quick {
            sized = SizeRun.Repetitions(libraryAdds: 50, cliRuns: 6, signals: 20, fullSyncs: 1, naiveAdds: 0)
        }
        if !hostOnly {
            let run = SizeRun(n: n, products: products, repetitions: sized, only: only, sqlite: sqlite, log: log)
            try run.run()
            figures += run.figures
        }
        if only.map({ !$0.isDisjoint(with: HostRun.figureNames) }) ?? true {
            figures += try HostRun(
                n: n, products: products, cliRuns: quick ? 2 : max(5, sized.cliRuns / 3),
                libraryRuns: quick ? 5 : sized.libraryAdds,
                alsoStatusAndAdd: hostOnly, only: only, log: log
            ).run()
        }
    }
    if let carddavCards, load == nil {
        figures += try cardDAVFigures(products: products, cards: carddavCards, log: log)
    }
    // P8 (a failing verdict) is measured against P5's passing run of this same run.
    if !quick, !hostOnly, only.map({ $0.contains("P5") || $0.contains("P8") }) ?? true {
        // The goal holds "in every run": a goals run makes three.
        var passingRuns: [Double] = []
        for run in 1...(goals ? 3 : 1) {
            log("P5 conformance kit" + (goals ? ", run \(run) of 3" : ""))
            let passing = try await conformanceFigure(products: products)
            figures.append(passing)
            passingRuns.append(passing.medianMs)
        }
        // `--only P5` adds a loaded run of its own; a goals run measures P5 again in its loaded variant.
        if !goals, only?.contains("P5") == true {
            log("P5 conformance kit on a loaded machine")
            figures.append(try await conformanceFigure(products: products, loaded: true))
        }
        if only?.contains("P8") ?? true {
            log("P8 conformance kit, a failing verdict")
            figures.append(
                try await failingVerdictFigure(products: products, passingMs: Measure.median(passingRuns)))
        }
    }
    if !quick, !hostOnly, only?.contains("P7") ?? true {
        log("P7 conformance kit at size (100,000 contacts)")
        figures.append(try await kitAtSizeFigure(products: products))
        if goals {
            log("P7 conformance kit at size on a provider with O(n) pages (bad-provider)")
            figures.append(try await kitAtSizeOnLinearProviderFigure(products: products))
        }
    }
    if goals {
        figures += try debugFigures(bench: debugBenchPath, sizes: sizes, quick: quick, log: log)
    }
    guard let load else { return figures }
    try load.checkStillBusy()
    return figures.map { figure in
        var loaded = figure
        loaded.path += BusyProcessors.pathSuffix
        loaded.note = (figure.note.map { $0 + "; " } ?? "") + load.note
        return loaded
    }
}

var figures: [Figure] = []
do {
    let started = Measure.now()
    figures = try await measureFigures(load: nil)
    if goals {
        log(String(format: "quiet run: %.0f s", Measure.now() - started))
        // The loaded variant: the same measurements while every processor is kept busy.
        let busy = try BusyProcessors(products: products)
        defer { busy.stop() }
        log("loaded run: the same figures with \(busy.count) busy processes (bench-floor spin)")
        let loadedStart = Measure.now()
        figures += try await measureFigures(load: busy)
        log(String(format: "loaded run: %.0f s", Measure.now() - loadedStart))
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

let verdicts = goals ? Goals(figures: figures).judge() : nil
if let recordPath {
    do {
        try BenchmarkRecord.current(figures: figures, goals: verdicts).write(to: recordPath)
    } catch {
        FileHandle.standardError.write(Data("error: cannot write \(recordPath): \(error)\n".utf8))
        exit(1)
    }
}

if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(figures), as: UTF8.self))
    exit(0)
}

func format(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "-" }
    return value < 10 ? String(format: "%.3f", value) : String(format: "%.1f", value)
}

func column(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0)
}

print("figure  path     n        median ms  baseline ms  floor ms  ×floor  vs baseline    peak RSS MB")
for figure in figures {
    let overFloor = figure.floorMs.map { String(format: "%.2f", figure.medianMs / $0) } ?? "-"
    let speedup = figure.baselineMedianMs.map { baselineComparison(baselineMs: $0, measuredMs: figure.medianMs) } ?? "-"
    let peak = figure.peakRSSBytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "-"
    print(
        column(figure.id, 8) + column(figure.path + (figure.configuration.map { " (\($0))" } ?? ""), 9)
            + column(String(figure.n), 9)
            + column(format(figure.medianMs), 11)
            + column(format(figure.baselineMedianMs), 13) + column(format(figure.floorMs), 10) + column(overFloor, 8)
            + column(speedup, 15) + peak)
}
for figure in figures where figure.id == "P3" && figure.path == "library" && figure.configuration == nil {
    let reference = figure.referenceMs ?? .nan
    let floor = figure.floorMs ?? .nan
    print(
        String(
            format: "P3 at n=%d: full sync %.1f ms = %.2f× JSON encode+decode (%.1f ms), %.1f× the raw floor (%.1f ms)",
            figure.n, figure.medianMs, figure.medianMs / reference, reference, figure.medianMs / floor, floor))
    if let cpu = figure.cpuMs,
        let sqlite = figures.first(where: {
            $0.id == "P3" && $0.path == "sqlite" && $0.n == figure.n && $0.configuration == nil
        }), let sqliteCPU = sqlite.cpuMs
    {
        print(
            String(
                format:
                    "P3 at n=%d: full sync CPU %.1f ms = %.2f× SQLite's durable copy of the same rows (CPU %.1f ms, wall %.1f ms)",
                figure.n, cpu, cpu / sqliteCPU, sqliteCPU, sqlite.medianMs))
    }
}
for figure in figures where figure.id == "P4" && figure.configuration == nil {
    guard let runs = figure.runMediansMs, !runs.isEmpty else { continue }
    let sorted = runs.sorted()
    print(
        "P4 \(figure.path) at n=\(figure.n): \(runs.count) runs' medians: "
            + String(
                format: "min %.3f, median %.3f, max %.3f ms", sorted[0], Measure.median(sorted),
                sorted[sorted.count - 1]))
}
for figure in figures where figure.id == "P3" && figure.path == "cli" && figure.configuration == nil {
    let reference = figure.referenceMs ?? .nan
    print(
        String(
            format: "P3 cli at n=%d: signal --wait %.1f ms = %.2f× the in-process full sync (%.1f ms)", figure.n,
            figure.medianMs, figure.medianMs / reference, reference))
}
for figure in figures where figure.id == "Q1" && figure.path == "library" {
    print(
        String(
            format:
                "Q1 at n=%d: search --name %.1f ms with the name index; the first search after the import: %.1f ms",
            figure.n, figure.medianMs, figure.referenceMs ?? .nan))
}
for figure in figures where figure.id == "Q2" {
    print(
        String(
            format: "Q2 at n=%d: the first search --name after a compaction %.1f ms (the compaction: %.1f ms)",
            figure.n, figure.medianMs, figure.referenceMs ?? .nan))
}
// Growth: each later size against the first one given (one run can hold 1k, 100k and 1M side by side).
for id in ["P1", "P2", "P3", "P4", "S1", "I1", "I2", "G1", "Q1", "Q2"] {
    for path in ["library", "cli"] {
        let measured = figures.filter { $0.id == id && $0.path == path && $0.configuration == nil }
        guard let first = measured.first else { continue }
        for later in measured.dropFirst() {
            print(
                "growth \(id) \(path): \(first.n) → \(later.n) contacts: ×"
                    + String(format: "%.2f", later.medianMs / first.medianMs))
        }
    }
}
print(String(format: "bench process peak RSS: %.1f MB", Double(Measure.ownPeakRSS()) / 1_048_576))
if let verdicts {
    if BenchmarkRecord.configuration != "release" {
        print(
            "note: this contacts-bench is a \(BenchmarkRecord.configuration) build: the release goals are judged on its figures"
        )
    }
    for verdict in verdicts { print(verdict.text) }
}
