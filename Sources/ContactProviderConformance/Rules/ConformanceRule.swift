import Foundation

/// How strongly the framework asks for a rule.
public enum RuleLevel: String, Codable, Sendable {
    /// Breaking it loses, duplicates or corrupts contacts: the check fails.
    case must = "MUST"
    /// Breaking it is discouraged (memory, battery): the check warns.
    case should = "SHOULD"
}

/// One numbered rule of the conformance kit.
public struct ConformanceRule: Codable, Equatable, Sendable {
    /// `C1`, `D3`, …
    public let id: String
    /// One line.
    public let title: String
    /// MUST or SHOULD.
    public let level: RuleLevel
    /// Rules of the framework reference (`R19`, …) it checks.
    public let references: [String]

    /// Every rule, in report order.
    public static let all: [ConformanceRule] = [
        ConformanceRule(id: "C1", title: "exactly one terminal call per content page, before returning", level: .must, references: ["R19", "R20", "R41"]),
        ConformanceRule(id: "C2", title: "non-empty generation marker, constant across pages", level: .must, references: ["R23"]),
        ConformanceRule(id: "C3", title: "no identifier delivered twice across pages", level: .must, references: ["R19", "R24"]),
        ConformanceRule(id: "C4", title: "the union of the pages equals the data", level: .must, references: ["R24", "R25"]),
        ConformanceRule(id: "C5", title: "deterministic and resumable: the same page gives the same items", level: .must, references: ["R26"]),
        ConformanceRule(id: "C6", title: "pages respect suggestedPageSize", level: .should, references: ["R21"]),
        ConformanceRule(id: "F1", title: "every field of every contact arrives as written, in every shape (no field-level loss)", level: .must, references: ["R24", "R32"]),
        ConformanceRule(id: "D1", title: "exactly one terminal call per change batch, before returning", level: .must, references: ["R30"]),
        ConformanceRule(id: "D2", title: "changes from the last anchor bring the system exactly to the data", level: .must, references: ["R32", "R33", "R34", "R35"]),
        ConformanceRule(id: "D3", title: "changes made during content enumeration are not lost", level: .must, references: ["R25", "R29"]),
        ConformanceRule(id: "D4", title: "moreComing batches advance the anchor", level: .must, references: ["R34", "R40"]),
        ConformanceRule(id: "D5", title: "an up-to-date provider answers no changes and moreComing == false", level: .should, references: ["R40"]),
        ConformanceRule(id: "D6", title: "replaying the same anchor gives the same batch", level: .must, references: ["R37"]),
        ConformanceRule(id: "D7", title: "batches respect suggestedBatchSize", level: .should, references: ["R31"]),
        ConformanceRule(id: "D8", title: "an identifier deleted and added again arrives as the new contact (in one batch window and across batches)", level: .must, references: ["R32", "R33"]),
        ConformanceRule(id: "D9", title: "edits made while the provider is inside an enumerator call (after it read, before it returns) are not lost", level: .must, references: ["R29", "R35"]),
        ConformanceRule(id: "D10", title: "after a sync that caught up, another signal brings nothing (the last batch advances its anchor)", level: .must, references: ["R34", "R40"]),
        ConformanceRule(id: "E1", title: "a forgotten generation is answered with an expiry error, never a partial answer", level: .must, references: ["R27", "R38"]),
        ConformanceRule(id: "L1", title: "configured before any enumeration, the new extension answers its first request", level: .must, references: ["R15", "R16"]),
        ConformanceRule(id: "L2", title: "invalidate() returns within the time limit", level: .must, references: ["R11", "R17"]),
        ConformanceRule(id: "L3", title: "a restarted provider loses no committed state", level: .must, references: ["R35"]),
        ConformanceRule(id: "V1", title: "convergence: after every signal of a random edit sequence, the system equals the data", level: .must, references: ["R12", "R24", "R34", "R38"]),
        ConformanceRule(id: "W1", title: "the system raises no warning during the kit's syncs", level: .should, references: ["R19", "R21", "R31", "R40"]),
    ]

    /// The rule with `id`, if any.
    public static func named(_ id: String) -> ConformanceRule? {
        all.first { $0.id == id.uppercased() }
    }
}
