import Foundation

/// How strongly the framework asks for a rule.
public enum RuleLevel: String, Codable, Sendable {
    /// Breaking it loses, duplicates or corrupts contacts: the check fails.
    case must = "MUST"
    /// Breaking it is discouraged (memory, battery): the check warns.
    case should = "SHOULD"
}

/// One numbered rule of the conformance kit.
///
/// A rule is named by value (`.c1`, `.d2`) wherever code selects or refers to it: a run's
/// selection is ``ConformanceOptions/rules``, a set of these values, and a list of ids from the
/// command line becomes that set once, in ``rules(named:)``.
public struct ConformanceRule: Codable, Hashable, Sendable {
    /// `C1`, `D3`, …
    public let id: String
    /// One line.
    public let title: String
    /// MUST or SHOULD.
    public let level: RuleLevel
    /// The framework rules it checks (`.r19`, …); JSON writes each as its id (`"R19"`).
    public let references: [FrameworkRule]

    /// A rule of the kit, checking the framework rules `references`.
    public init(id: String, title: String, level: RuleLevel, references: [FrameworkRule]) {
        self.id = id
        self.title = title
        self.level = level
        self.references = references
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, level, references
    }

    /// Reads a rule as `--list-rules --json` writes it; a framework rule id that names no rule is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        level = try container.decode(RuleLevel.self, forKey: .level)
        references = try container.decode([String].self, forKey: .references).map { name in
            guard let rule = FrameworkRule.named(name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .references, in: container, debugDescription: "no framework rule '\(name)'")
            }
            return rule
        }
    }

    /// Writes the rule with its framework rules as ids (`"references": ["R19", "R20"]`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(level, forKey: .level)
        try container.encode(references.map(\.id), forKey: .references)
    }

    /// Every rule, in report order.
    public static let all: [ConformanceRule] = [
        .c1, .c2, .c3, .c4, .c5, .c6, .f1, .d1, .d2, .d3, .d4, .d5,
        .d6, .d7, .d8, .d9, .d10, .d11, .e1, .t1, .l1, .l2, .l3, .v1, .w1, .s1, .s2,
    ]

    /// C1: exactly one terminal call per content page, before returning.
    public static let c1 = ConformanceRule(
        id: "C1", title: "exactly one terminal call per content page, before returning", level: .must,
        references: [.r19, .r20, .r41])
    /// C2: non-empty generation marker, constant across pages.
    public static let c2 = ConformanceRule(
        id: "C2", title: "non-empty generation marker, constant across pages", level: .must,
        references: [.r23])
    /// C3: no identifier delivered twice across pages.
    public static let c3 = ConformanceRule(
        id: "C3", title: "no identifier delivered twice across pages", level: .must,
        references: [.r19, .r24])
    /// C4: the union of the pages equals the data.
    public static let c4 = ConformanceRule(
        id: "C4", title: "the union of the pages equals the data", level: .must,
        references: [.r24, .r25])
    /// C5: deterministic and resumable: the same page gives the same items.
    public static let c5 = ConformanceRule(
        id: "C5", title: "deterministic and resumable: the same page gives the same items", level: .must,
        references: [.r26])
    /// C6: pages respect suggestedPageSize.
    public static let c6 = ConformanceRule(
        id: "C6", title: "pages respect suggestedPageSize", level: .should,
        references: [.r21])
    /// F1: every field of every contact arrives as written, in every shape (no field-level loss).
    public static let f1 = ConformanceRule(
        id: "F1", title: "every field of every contact arrives as written, in every shape (no field-level loss)",
        level: .must,
        references: [.r24, .r32])
    /// D1: exactly one terminal call per change batch, before returning.
    public static let d1 = ConformanceRule(
        id: "D1", title: "exactly one terminal call per change batch, before returning", level: .must,
        references: [.r30])
    /// D2: changes from the last anchor bring the system exactly to the data.
    public static let d2 = ConformanceRule(
        id: "D2", title: "changes from the last anchor bring the system exactly to the data", level: .must,
        references: [.r32, .r33, .r34, .r35])
    /// D3: changes made during content enumeration are not lost.
    public static let d3 = ConformanceRule(
        id: "D3", title: "changes made during content enumeration are not lost", level: .must,
        references: [.r25, .r29])
    /// D4: moreComing batches advance the anchor.
    public static let d4 = ConformanceRule(
        id: "D4", title: "moreComing batches advance the anchor", level: .must,
        references: [.r34, .r40])
    /// D5: an up-to-date provider answers no changes and moreComing == false.
    public static let d5 = ConformanceRule(
        id: "D5", title: "an up-to-date provider answers no changes and moreComing == false", level: .should,
        references: [.r40])
    /// D6: replaying the same anchor gives the same batch.
    public static let d6 = ConformanceRule(
        id: "D6", title: "replaying the same anchor gives the same batch", level: .must,
        references: [.r37])
    /// D7: batches respect suggestedBatchSize.
    public static let d7 = ConformanceRule(
        id: "D7", title: "batches respect suggestedBatchSize", level: .should,
        references: [.r31])
    /// D8: an identifier deleted and added again arrives as the new contact (in one batch window and across batches).
    public static let d8 = ConformanceRule(
        id: "D8",
        title:
            "an identifier deleted and added again arrives as the new contact (in one batch window and across batches)",
        level: .must,
        references: [.r32, .r33])
    /// D9: edits made while the provider is inside an enumerator call (after it read, before it returns) are not lost.
    public static let d9 = ConformanceRule(
        id: "D9",
        title:
            "edits made while the provider is inside an enumerator call (after it read, before it returns) are not lost",
        level: .must,
        references: [.r29, .r35])
    /// D10: after a sync that caught up, another signal brings nothing (the last batch advances its anchor).
    public static let d10 = ConformanceRule(
        id: "D10",
        title: "after a sync that caught up, another signal brings nothing (the last batch advances its anchor)",
        level: .must,
        references: [.r34, .r40])
    /// D11: changes made between the batches of one change session are not lost.
    public static let d11 = ConformanceRule(
        id: "D11", title: "changes made between the batches of one change session are not lost", level: .must,
        references: [.r29, .r34, .r35])
    /// E1: a forgotten generation is answered with an expiry error, never a partial answer.
    ///
    /// Forgotten means a reset of the data, and also an anchor older than the start of a trimmed
    /// change log: such an anchor is answered with `changeAnchorExpired` (the system then enumerates
    /// the content in full, R38), never with the changes from the oldest one still kept.
    public static let e1 = ConformanceRule(
        id: "E1", title: "a forgotten generation is answered with an expiry error, never a partial answer",
        level: .must,
        references: [.r27, .r38])
    /// T1: a store that fails for a moment loses nothing: the system keeps what it had, and the next signal delivers what is pending.
    ///
    /// A moment includes the provider's start: a provider started while the app's save is half done
    /// must not take the store it cannot read for an empty one (a complete content enumeration is
    /// final, R25); it fails the call with an error other than an expiry, which the system retries
    /// (R28, R39), or reads the store again at the next enumeration.
    public static let t1 = ConformanceRule(
        id: "T1",
        title:
            "a store that fails for a moment loses nothing: the system keeps what it had, the next signal delivers what is pending",
        level: .must,
        references: [.r27, .r28, .r38, .r39])
    /// L1: configured before any enumeration, the new extension answers its first request.
    public static let l1 = ConformanceRule(
        id: "L1", title: "configured before any enumeration, the new extension answers its first request", level: .must,
        references: [.r15, .r16])
    /// L2: invalidate() returns within the time limit.
    public static let l2 = ConformanceRule(
        id: "L2", title: "invalidate() returns within the time limit", level: .must,
        references: [.r11, .r17])
    /// L3: a restarted provider loses no committed state.
    public static let l3 = ConformanceRule(
        id: "L3", title: "a restarted provider loses no committed state", level: .must,
        references: [.r35])
    /// V1: convergence: after every signal of a random edit sequence, the system equals the data.
    public static let v1 = ConformanceRule(
        id: "V1", title: "convergence: after every signal of a random edit sequence, the system equals the data",
        level: .must,
        references: [.r12, .r24, .r34, .r38])
    /// W1: the system raises no warning during the kit's syncs.
    public static let w1 = ConformanceRule(
        id: "W1", title: "the system raises no warning during the kit's syncs", level: .should,
        references: [.r13, .r19, .r21, .r31, .r40])
    /// The rules checked only at the app's size (``ConformanceOptions/contacts``).
    public static let sizeRules: [ConformanceRule] = [.s1, .s2]

    /// S1: at the app's size, a full sync and a change sync finish within the page limit and bring the system to the data.
    public static let s1 = ConformanceRule(
        id: "S1",
        title:
            "at the app's size (--contacts N), a full sync and a change sync with the system's page and batch sizes finish within the page limit and bring the system to the data",
        level: .must,
        references: [.r24, .r32, .r41, .r42])
    /// S2: a page's or batch's time does not grow with the address book past the page limit.
    public static let s2 = ConformanceRule(
        id: "S2",
        title:
            "a page's or batch's time does not grow with the address book past the page limit (projected to the system's item limit)",
        level: .must,
        references: [.r41, .r42])

    /// The rule with `id` (`C1`, case-insensitive), if any.
    public static func named(_ id: String) -> ConformanceRule? {
        all.first { $0.id == id.uppercased() }
    }

    /// The rules with these ids (`["C1", "d3"]`, case-insensitive), as ``ConformanceOptions/rules``
    /// takes them: the one place a list of ids (`--rules C1,D3`) becomes rules.
    ///
    /// - Throws: ``ConformanceOptionsError/unknownRule(_:)`` for the first id that names no rule, as
    ///   a typo would otherwise select nothing, and a run that checks nothing passes.
    public static func rules(named ids: some Sequence<String>) throws(ConformanceOptionsError) -> Set<ConformanceRule> {
        var rules: Set<ConformanceRule> = []
        for id in ids {
            guard let rule = named(id) else { throw .unknownRule(id) }
            rules.insert(rule)
        }
        return rules
    }
}
