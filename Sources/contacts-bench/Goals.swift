import CommandLineToolkit
import ContactProviderSystem
import Foundation

/// One of issue 27's goals judged on one run's figures (`--goals`).
struct GoalVerdict: Codable {
    /// The goal, as the issue states it.
    var goal: String
    /// What this run measured for it, ratios included.
    var measured: String
    /// Whether it holds; nil when the run did not measure it (a size or figure left out).
    var met: Bool?
}

/// Issue 27's goals, each judged from the figures of one run: the release figures of this bench
/// and the debug figures its debug build measured in the same run (`configuration == "debug"`).
struct Goals {
    let figures: [Figure]

    /// The page limit a full sync with default settings runs under (R41).
    static let pageLimitMs = DomainConfiguration().pageTimeoutSeconds * 1000
    static let million = 1_000_000

    func figure(_ id: String, _ path: String, _ n: Int, debug: Bool = false) -> Figure? {
        figures.first { $0.id == id && $0.path == path && $0.n == n && ($0.configuration == "debug") == debug }
    }

    /// The sizes this run measured `id` at (release figures).
    func sizes(_ id: String, _ path: String) -> [Int] {
        figures.filter { $0.id == id && $0.path == path && $0.configuration == nil }.map(\.n)
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
    static func ms(_ value: Double) -> String {
        value >= 1000 ? String(format: "%.1f s", value / 1000) : String(format: "%.2f ms", value)
    }

    /// One check: `measured`'s median over `reference`'s at most `limit`; `label` starts the text and
    /// `against` names the reference. A missing figure is "not measured".
    static func ratioCheck(
        _ label: String, _ measured: Figure?, over reference: Figure?, against: String, limit: Double,
        missing: String
    ) -> (String, Bool?) {
        guard let measured, let reference else { return ("\(label) \(missing): not measured", nil) }
        let ratio = measured.medianMs / reference.medianMs
        return (
            "\(label) \(ms(measured.medianMs)) = \(Self.ratio(ratio)) \(against) (\(ms(reference.medianMs)))",
            ratio <= limit
        )
    }

    /// A verdict from `checks`, each (text, holds); nil holds for a missing figure.
    static func verdict(_ goal: String, _ checks: [(String, Bool?)]) -> GoalVerdict {
        let met: Bool? =
            checks.isEmpty || checks.contains { $0.1 == nil } ? nil : checks.allSatisfy { $0.1 == true }
        return GoalVerdict(
            goal: goal, measured: checks.isEmpty ? "not measured" : checks.map(\.0).joined(separator: "; "), met: met)
    }

    func judge() -> [GoalVerdict] {
        [
            seedFormatImport(), oneCommand(), debugMillion(), debugHundredThousand(), firstSignalAfterFullSync(),
            idleSignal(), kit(), kitAtSize(), kitLoaded(),
        ]
    }

    func seedFormatImport() -> GoalVerdict {
        let goal = "1M seed-format import (release): ≤ 1.5× the store's own format in the same run; peak ≤ 500 MB"
        guard let own = figure("I1", "cli", Self.million), let seed = figure("I2", "cli", Self.million) else {
            return Self.verdict(goal, [("I1, I2 at 1,000,000: not measured", nil)])
        }
        let peak = Double(seed.peakRSSBytes ?? 0) / 1_048_576
        return Self.verdict(
            goal,
            [
                (
                    "I2 \(Self.ms(seed.medianMs)) = \(Self.ratio(seed.medianMs / own.medianMs)) I1 (\(Self.ms(own.medianMs)))",
                    seed.medianMs <= 1.5 * own.medianMs
                ),
                (String(format: "peak %.0f MB", peak), seed.peakRSSBytes.map { _ in peak <= 500 }),
            ])
    }

    func oneCommand() -> GoalVerdict {
        let goal =
            "one CLI command (add, one-change sync, idle signal): ≤ 1.5× a trivial Foundation executable doing the same I/O"
        var checks: [(String, Bool?)] = []
        for id in ["P1", "P2", "P4"] {
            for n in sizes(id, "cli") {
                guard let cli = figure(id, "cli", n), let floor = cli.floorMs else { continue }
                checks.append(("\(id) at \(n): \(Self.ratio(cli.medianMs / floor))", cli.medianMs <= 1.5 * floor))
            }
        }
        return Self.verdict(goal, checks)
    }

    func debugMillion() -> GoalVerdict {
        let goal =
            "debug build, 1M: import ≤ 60 s; first full sync with default settings ≤ 60 s, no page near its limit (≤ half); one-change sync ≤ 3× its 1k figure"
        var checks: [(String, Bool?)] = []
        let importFigure = figure("I1", "cli", Self.million, debug: true)
        checks.append(
            (
                "import " + (importFigure.map { Self.ms($0.medianMs) } ?? "not measured"),
                importFigure.map { $0.medianMs <= 60_000 }
            ))
        let sync = figure("P3", "library", Self.million, debug: true)
        checks.append(
            (
                "full sync " + (sync.map { Self.ms($0.medianMs) } ?? "not measured"),
                sync.map { $0.medianMs <= 60_000 }
            ))
        checks.append(
            (
                "slowest page "
                    + (sync?.slowestCallMs.map { "\(Self.ms($0)) of the \(Self.ms(Self.pageLimitMs)) limit" }
                        ?? "not measured"),
                sync?.slowestCallMs.map { $0 <= Self.pageLimitMs / 2 }
            ))
        for path in ["library", "cli"] {
            checks.append(
                Self.ratioCheck(
                    "one-change sync (\(path))", figure("P2", path, Self.million, debug: true),
                    over: figure("P2", path, 1000, debug: true), against: "its 1k figure", limit: 3,
                    missing: "at 1k and 1M"))
        }
        return Self.verdict(goal, checks)
    }

    func debugHundredThousand() -> GoalVerdict {
        let goal =
            "debug build, 100k full sync, in process and through the CLI: ≤ 8× the release figure in the same run"
        var checks: [(String, Bool?)] = []
        for path in ["library", "cli"] {
            checks.append(
                Self.ratioCheck(
                    path, figure("P3", path, 100_000, debug: true), over: figure("P3", path, 100_000),
                    against: "release", limit: 8, missing: "at 100,000"))
        }
        return Self.verdict(goal, checks)
    }

    func firstSignalAfterFullSync() -> GoalVerdict {
        let goal =
            "first signal after a full sync of 1M (release / debug): ≤ 2× an idle signal's figure plus the sync's own work (none: nothing changed)"
        var checks: [(String, Bool?)] = []
        for debug in [false, true] {
            checks.append(
                Self.ratioCheck(
                    debug ? "debug" : "release", figure("P6", "cli", Self.million, debug: debug),
                    over: figure("P4", "cli", Self.million, debug: debug), against: "an idle signal", limit: 2,
                    missing: "at 1,000,000"))
        }
        return Self.verdict(goal, checks)
    }

    func idleSignal() -> GoalVerdict {
        let goal = "idle signal, library, quiet machine and loaded: ≤ 0.5 ms in every run, both"
        var checks: [(String, Bool?)] = []
        for path in ["library", "library-loaded"] {
            let measured = sizes("P4", path)
            if measured.isEmpty { checks.append(("\(path): not measured", nil)) }
            for n in measured {
                guard let runs = figure("P4", path, n)?.runMediansMs, let slowest = runs.max() else { continue }
                checks.append(
                    (
                        "\(path) at \(n): run medians \(String(format: "%.3f–%.3f", runs.min() ?? 0, slowest)) ms",
                        slowest <= 0.5
                    ))
            }
        }
        return Self.verdict(goal, checks)
    }

    func kit() -> GoalVerdict {
        let goal = "kit, 1,000 operations: ≤ 2× its CPU time in every run; failing verdict ≤ 1.5× a passing run"
        var checks: [(String, Bool?)] = []
        let passing = figures.filter { $0.id == "P5" && $0.path == "cli" && $0.configuration == nil }
        if passing.isEmpty { checks.append(("P5: not measured", nil)) }
        for (index, run) in passing.enumerated() {
            let ratio = run.medianMs / max(run.referenceMs ?? .infinity, 0.001)
            checks.append(
                ("P5 run \(index + 1): \(Self.ms(run.medianMs)) = \(Self.ratio(ratio)) its CPU time", ratio <= 2))
        }
        if let failing = figure("P8", "cli", 1000), let reference = failing.referenceMs {
            let ratio = failing.medianMs / reference
            checks.append(
                (
                    "P8 \(Self.ms(failing.medianMs)) = \(Self.ratio(ratio)) the passing run (\(Self.ms(reference)))",
                    ratio <= 1.5
                ))
        } else {
            checks.append(("P8: not measured", nil))
        }
        return Self.verdict(goal, checks)
    }

    /// Issue 43, item 9: the kit on a busy machine does work, not waiting (it waited on the disk).
    func kitLoaded() -> GoalVerdict {
        let goal = "kit on a loaded machine, 1,000 operations: ≤ 3× its CPU time"
        guard let loaded = figure("P5", "cli-loaded", 1000), let cpu = loaded.referenceMs else {
            return Self.verdict(goal, [("P5 loaded: not measured", nil)])
        }
        let ratio = loaded.medianMs / max(cpu, 0.001)
        return Self.verdict(
            goal, [("P5 loaded: \(Self.ms(loaded.medianMs)) = \(Self.ratio(ratio)) its CPU time", ratio <= 3)])
    }

    func kitAtSize() -> GoalVerdict {
        let goal =
            "kit at size: the content and change rules run at N contacts (100k) and report each page's time; a provider with O(n) pages fails at N with the rule named"
        var checks: [(String, Bool?)] = []
        if let demo = figure("P7", "cli", 100_000) {
            let timed = demo.note?.contains("content pages (median") ?? false
            checks.append(
                (
                    "demo-provider at 100,000: passed in \(Self.ms(demo.medianMs))"
                        + (timed ? ", page times reported" : ""), timed
                ))
        } else {
            checks.append(("demo-provider at 100,000: not measured", nil))
        }
        if let linear = figure("P7", "cli-linear", 100_000) {
            let failed = linear.failedRules ?? []
            checks.append(
                (
                    "bad-provider (O(n) pages) at 100,000, page limit \(SecondsText.format(linearProviderPageLimitSeconds)) s: "
                        + (failed.isEmpty ? "passed" : "failed \(failed.joined(separator: ", "))"),
                    !failed.isEmpty
                ))
        } else {
            checks.append(("bad-provider (O(n) pages) at 100,000: not measured", nil))
        }
        return Self.verdict(goal, checks)
    }
}
