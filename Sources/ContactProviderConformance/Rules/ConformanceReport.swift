import Foundation

/// The outcome of one rule.
public struct RuleResult: Codable, Equatable, Sendable {
    /// pass, fail (a MUST rule broken), warn (a SHOULD rule broken), or skipped (not selected).
    public enum Status: String, Codable, Sendable {
        case pass, fail, warn, skipped
    }

    public var rule: ConformanceRule
    public var status: Status
    /// Why it failed, in one or two sentences.
    public var explanation: String?
    /// The step that broke it (e.g. `content page ("cps1:…", 4)` or `operation 17 of 40: signal`).
    public var step: String?
    /// The observer calls that led there (the end of the transcript).
    public var transcript: [String]?
    /// A command or call that reproduces the failure.
    public var reproduce: String?
}

/// Everything a conformance run found.
public struct ConformanceReport: Codable, Equatable, Sendable {
    /// What was checked (a type name or an executable path).
    public var provider: String
    /// The seed of the random data and operations.
    public var seed: UInt64
    /// How many random operations the convergence rule ran.
    public var operations: Int
    /// One result per rule.
    public var results: [RuleResult]
    /// Wall time of the run.
    public var durationSeconds: Double
    /// Why the provider could not be started, when it could not: then no rule was checked, and
    /// the run reports this one error instead of the same failure for every rule.
    public var startFailure: String?
    /// Processes the provider started that outlived it, and how the kit ended them (issue 42 item 8);
    /// nil when there were none.
    public var outlivingProcesses: [OutlivingProcess]? = nil
    /// Why this run could not contain its providers in a cgroup of their own, when it could not (then a
    /// process that left the provider's process group and cleared its environment escapes the kit's
    /// cleanup). In the report's text only, not its JSON: it depends on the machine, not the provider.
    public var containmentUnavailable: String? = nil

    private enum CodingKeys: String, CodingKey {
        case provider, seed, operations, results, durationSeconds, startFailure, outlivingProcesses
    }

    /// True when the provider started and no MUST rule failed.
    public var passed: Bool { startFailure == nil && !results.contains { $0.status == .fail } }

    /// The failed MUST rules.
    public var failures: [RuleResult] { results.filter { $0.status == .fail } }

    /// The verdict in one line (`23 passed, 1 failed, 0 warnings in 4.20 s`), as the report's text
    /// prints it first and last: a long report's outcome is seen at its head and its tail.
    public var summary: String {
        let count = { (status: RuleResult.Status) in self.results.filter { $0.status == status }.count }
        // Rules that could not be checked have a reason; rules not selected (--rules) have none.
        let skipped = results.filter { $0.status == .skipped && $0.explanation != nil }.count
        return "\(count(.pass)) passed, \(count(.fail)) failed, \(count(.warn)) warning\(count(.warn) == 1 ? "" : "s")"
            + (skipped > 0 ? ", \(skipped) not checked" : "") + String(format: " in %.2f s", durationSeconds)
            + whereToStart
    }

    /// With more than one finding, which to read first (issue 43, item 7): `; start with D2 (2 root
    /// causes)`, and when the kit named that finding's mistake from evidence (``LikelyMistake``), the
    /// mistake too: `; start with D10: moreComing was false with one change still to come (2 root
    /// causes)`. Empty otherwise.
    var whereToStart: String {
        let groups = RootCause.groups(results)
        guard let group = groups.first, let first = group.findings.first,
            groups.reduce(0, { $0 + $1.findings.count }) > 1
        else {
            return ""
        }
        let causes = groups.count == 1 ? "one root cause" : "\(groups.count) root causes"
        let mistake = group.isNamedMistake ? ": \(group.title)" : ""
        return "; start with \(first.rule.id)\(mistake) (\(causes))"
    }

    /// A table and, for each failure or warning, its explanation and reproduction, between the
    /// one-line ``summary`` (first and last).
    public var text: String {
        var lines = ["Conformance of \(provider) (seed \(seed), \(operations) operations)"]
        if let startFailure {
            lines.append("")
            lines.append("error: the provider could not start, so no rule was checked: \(startFailure)")
            return lines.joined(separator: "\n")
        }
        lines += [summary, "", "RULE  LEVEL   RESULT   TITLE"]
        // Rules left out by `--rules` are not listed one by one (issue 43, item 8): one line counts them.
        let unselected = results.filter { $0.status == .skipped && $0.explanation == nil }
        for result in results where !(result.status == .skipped && result.explanation == nil) {
            let rule = result.rule
            lines.append(
                rule.id.padding(toLength: 6, withPad: " ", startingAt: 0)
                    + rule.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + result.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + rule.title + " (" + rule.references.map(\.id).joined(separator: ", ") + ")")
        }
        if !unselected.isEmpty {
            let rules = "\(unselected.count) other rule\(unselected.count == 1 ? "" : "s")"
            // A run without --rules leaves out only the size rules, which ask for the app's size.
            if unselected.allSatisfy({ ConformanceRule.sizeRules.contains($0.rule) }) {
                let ids = unselected.map(\.rule.id).joined(separator: ", ")
                lines.append("(\(rules) not selected: \(ids) run with --contacts N)")
            } else {
                lines.append("(\(rules) not selected by --rules)")
            }
        }
        // The findings by root cause, the most specific first (RootCause): where to start reading.
        let groups = RootCause.groups(results)
        for (index, group) in groups.enumerated() {
            if groups.count > 1 || group.findings.count > 1 {
                lines.append("")
                lines.append(
                    "ROOT CAUSE \(index + 1) of \(groups.count): \(group.title) \u{2014} "
                        + group.findings.map(\.rule.id).joined(separator: ", "))
            }
            for result in group.findings { lines += Self.finding(result) }
        }

        // What a passing rule measured or could not cover (the size rules' times, for one).
        for result in results where result.status == .pass {
            guard let explanation = result.explanation else { continue }
            lines.append("")
            lines.append("NOTE \(result.rule.id): \(explanation)")
        }
        for note in processNotes {
            lines.append("")
            lines.append(note)
        }
        // Rules that could not be checked, grouped by the reason (selected-out rules have none).
        var reasons: [(String, [String])] = []
        for result in results where result.status == .skipped {
            guard let reason = result.explanation else { continue }
            if let index = reasons.firstIndex(where: { $0.0 == reason }) {
                reasons[index].1.append(result.rule.id)
            } else {
                reasons.append((reason, [result.rule.id]))
            }
        }
        for (reason, ids) in reasons {
            lines.append("")
            lines.append("SKIP \(ids.joined(separator: ", ")): \(reason)")
        }
        lines += ["", summary]
        return lines.joined(separator: "\n")
    }

    /// One failed or warned rule as the text prints it: verdict, step, why, calls, reproduction.
    static func finding(_ result: RuleResult) -> [String] {
        var lines = ["", "\(result.status == .fail ? "FAIL" : "WARN") \(result.rule.id): \(result.rule.title)"]
        if let step = result.step { lines.append("  step: \(step)") }
        if let explanation = result.explanation { lines.append("  why: \(explanation)") }
        if let transcript = result.transcript, !transcript.isEmpty {
            lines.append("  calls:")
            lines += transcript.map { "    " + $0 }
        }
        if let reproduce = result.reproduce { lines.append("  reproduce: \(reproduce)") }
        return lines
    }

    /// What outlived the provider and, where the run had no cgroup, why: the `NOTE processes:` and
    /// `NOTE containment:` lines of the text, and the suite's `system-out` in JUnit.
    public var processNotes: [String] {
        var notes: [String] = []
        if let outlivingProcesses, !outlivingProcesses.isEmpty {
            let count = outlivingProcesses.count
            notes.append(
                "NOTE processes: \(count) process\(count == 1 ? "" : "es") the provider started outlived it; the kit ended "
                    + (count == 1 ? "it" : "them") + ": " + outlivingProcesses.map(\.text).joined(separator: ", "))
        }
        if let containmentUnavailable {
            notes.append(
                "NOTE containment: the providers ran without a cgroup of their own, so a process that leaves their "
                    + "process group and clears its environment may outlive the run: \(containmentUnavailable)")
        }
        return notes
    }
}

/// Thrown by `checkContactProvider` when a MUST rule fails; its description is the full report.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The report.
    public let report: ConformanceReport
    public var description: String { report.text }
}
