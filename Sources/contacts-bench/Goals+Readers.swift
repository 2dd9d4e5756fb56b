import Foundation

/// Issue 44's items 1–3 as goals (its Done-when: "status right after a 1,000,000-contact full sync
/// within 2× its settled time, export of 1,000,000 within 128 MB, a bulk write after a sync delivered
/// as changes whatever the store's size"), judged on S2, X1 and P9 (ReaderFigures.swift).
extension Goals {
    /// The peak memory `export` of a million contacts may take.
    static let exportPeakLimitBytes = 128 * 1_048_576

    func readersNeverWait() -> GoalVerdict {
        let goal = "status right after a 1M full sync, while the provider compacts: ≤ 2× its settled time"
        var checks: [(String, Bool?)] = []
        for n in sizes("S2", "cli") where n != Self.million {
            checks.append(
                Self.ratioCheck(
                    "at \(n)", figure("S2", "cli", n), over: figure("S1", "cli", n), against: "settled status",
                    limit: 2, missing: "(S1)"))
        }
        checks.append(
            Self.ratioCheck(
                "at 1,000,000", figure("S2", "cli", Self.million), over: figure("S1", "cli", Self.million),
                against: "settled status", limit: 2, missing: "(S2, S1)"))
        return Self.verdict(goal, checks)
    }

    func exportWithinAPage() -> GoalVerdict {
        let goal = "export of 1M contacts (JSON): peak memory ≤ 128 MB"
        guard let export = figure("X1", "cli", Self.million), let peak = export.peakRSSBytes else {
            return Self.verdict(goal, [("X1 at 1,000,000: not measured", nil)])
        }
        return Self.verdict(
            goal,
            [
                (
                    String(format: "peak %.0f MB in %@", Double(peak) / 1_048_576, Self.ms(export.medianMs)),
                    peak <= Self.exportPeakLimitBytes
                )
            ])
    }

    func bulkWriteAsChanges() -> GoalVerdict {
        let goal =
            "a bulk write after a sync (generate \(SizeRun.bulkWrite)) arrives as changes of exactly the new contacts, at every size"
        let expected = "changes, \(SizeRun.bulkWrite) updated, 0 deleted"
        let runs = all("P9", "cli")
        guard !runs.isEmpty else { return Self.verdict(goal, [("P9: not measured", nil)]) }
        return Self.verdict(
            goal,
            runs.map { run in
                ("at \(run.n): \(run.delivered ?? "nothing recorded")", run.delivered == expected)
            })
    }
}
