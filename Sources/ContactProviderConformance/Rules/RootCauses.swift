import Foundation

/// Failures that share a root cause, the most specific first (issue 43, item 7): one bug in a
/// provider (a frozen anchor, forgotten deletions) fails many rules, and a developer should read the
/// failure closest to the bug before its consequences.
///
/// Two findings share a cause when their explanations say the same thing went wrong (the first
/// clause, with identifiers, numbers and quoted values taken out). A finding is more specific when
/// it names the mistake behind its symptom (``LikelyMistake``: the kit read the mistake from evidence,
/// so fixing it is where a developer starts, and the symptoms it causes elsewhere — a contact missing
/// after a change sync, after a restart, in V1 — go with it), then when it is a failure of a MUST
/// rule rather than a SHOULD rule's warning (a run that fails never says "start with" a warning, even
/// one with a shorter reproduction: the warning is often the same bug seen earlier, and the failure's
/// explanation quotes it), then when it comes from one of the
/// kit's fixed scenarios rather than the random convergence rule V1 (which every lost contact fails,
/// whatever lost it), then when its reproduction is shorter (fewer provider calls before the stores
/// differ), then in rule order. Groups are ordered by their most specific finding, and so are the
/// findings in a group: the report's first finding is where to start.
struct RootCause: Equatable {
    /// What went wrong, in the words the explanations share.
    var title: String
    /// The findings with this cause, the most specific first.
    var findings: [RuleResult]

    /// Whether the cause is a mistake the kit named from evidence (``LikelyMistake``), not a symptom.
    var isNamedMistake: Bool { findings.first.map(Self.namesMistake) ?? false }

    /// The failed and warned results of `results` grouped by cause, the most specific group first.
    static func groups(_ results: [RuleResult]) -> [RootCause] {
        let findings = results.enumerated().filter { $0.element.status == .fail || $0.element.status == .warn }
            .sorted {
                specificity($0.element, order: $0.offset).lexicographicallyPrecedes(
                    specificity($1.element, order: $1.offset))
            }
            .map(\.element)
        var groups: [RootCause] = []
        for finding in findings {
            let cause = title(of: finding)
            if let index = groups.firstIndex(where: { $0.title == cause }) {
                groups[index].findings.append(finding)
            } else {
                groups.append(RootCause(title: cause, findings: [finding]))
            }
        }
        return groups
    }

    /// A finding's rank: lower is more specific (see the type's comment).
    static func specificity(_ finding: RuleResult, order: Int) -> [Int] {
        [
            namesMistake(finding) ? 0 : 1,
            finding.status == .fail ? 0 : 1,
            finding.rule.id == ConformanceRule.v1.id ? 1 : 0,
            finding.transcript.map(\.count) ?? Int(Int32.max),
            order,
        ]
    }

    /// Whether `finding`'s explanation starts with a mistake the kit named (``LikelyMistake/explained(_:by:)``).
    static func namesMistake(_ finding: RuleResult) -> Bool {
        finding.explanation?.contains(LikelyMistake.sawSeparator) ?? false
    }

    /// The root cause of one finding, as words: its explanation's first clause, normalised.
    static func title(of finding: RuleResult) -> String {
        guard let explanation = finding.explanation, !explanation.isEmpty else { return finding.rule.title }
        var clause = Substring(explanation)
        // "after the content enumeration: different in …" says when, not what: the cause follows.
        while clause.hasPrefix("after "), let colon = clause.range(of: ": ") { clause = clause[colon.upperBound...] }
        for separator in [": ", ". ", " (", "; "] {
            if let range = clause.range(of: separator) { clause = clause[..<range.lowerBound] }
        }
        let words = clause.split(separator: " ").map { word -> String in
            if word.contains(where: \.isNumber) || word.hasPrefix("\"") || word.hasPrefix("'") { return "\u{2026}" }
            return String(word)
        }
        let normalised = words.reduce(into: [String]()) {
            if !($1 == "\u{2026}" && $0.last == "\u{2026}") { $0.append($1) }
        }
        return normalised.joined(separator: " ")
    }
}
