import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation

/// Options of a conformance run.
public struct ConformanceOptions: Sendable {
    /// The seed of the random data and operations (the same seed reproduces the same run).
    public var seed: UInt64 = 42
    /// Random operations in the convergence rule (V1).
    public var operations: Int = 200
    /// Only these rule ids (nil: all).
    public var rules: Set<String>?
    /// `suggestedPageSize` during the run (small, so paging is exercised).
    public var pageSize: Int = 4
    /// `suggestedBatchSize` during the run.
    public var batchSize: Int = 3
    /// Seconds one call may take; also the limit for `invalidate()` (L2).
    public var timeoutSeconds: Double = 10

    public init(seed: UInt64 = 42, operations: Int = 200, rules: Set<String>? = nil) {
        self.seed = seed
        self.operations = operations
        self.rules = rules
    }
}

/// A rule's outcome while checking.
struct Finding: Error {
    var explanation: String
    var step: String?
    var transcript: [String] = []
}

/// Runs the rules against one provider and backend.
final class ConformanceChecker {
    let subject: ProviderUnderTest
    let backend: ConformanceBackend
    let options: ConformanceOptions
    let reproduce: (String) -> String
    private var random: SeededRandom
    private var nextIdentifier = 0
    private var results: [String: RuleResult] = [:]
    /// Warnings the system raised during the kit's syncs (rule W1), with the step of each.
    var systemWarnings: [(warning: String, transcript: [String])] = []
    /// Set when a content page outlasted the page timeout: every other rule depends on content.
    var contentTimedOut = false

    init(
        subject: ProviderUnderTest, backend: ConformanceBackend, options: ConformanceOptions,
        reproduce: @escaping (String) -> String
    ) {
        self.subject = subject
        self.backend = backend
        self.options = options
        self.reproduce = reproduce
        random = SeededRandom(seed: options.seed)
    }

    /// Runs every selected rule; each scenario starts from empty data and an empty system store.
    func run() async -> [RuleResult] {
        let selected = Set(ConformanceRule.all.map(\.id).filter { options.rules?.contains($0) ?? true })
        func wants(_ rules: [ConformanceRule]) -> Bool { rules.contains { selected.contains($0.id) } }
        let scenarios: [([ConformanceRule], () async throws -> Void)] = [
            ([.c1, .c2, .c3, .c4, .c5, .c6], { try await self.contentRules() }),
            ([.f1], { try await self.fieldRule() }),
            ([.d1, .d2, .d4, .d5, .d6, .d7], { try await self.changeRules() }),
            ([.d3], { try await self.changesDuringContent() }),
            ([.d8], { try await self.reusedIdentifierRule() }),
            ([.d9], { try await self.midCallWritesRule() }),
            ([.e1], { try await self.expiryRule() }),
            ([.l1, .l2, .l3], { try await self.lifecycleRules() }),
            ([.v1], { try await self.convergenceRule() }),
            // D10 and W1 are checked wherever the kit syncs; this scenario makes them hold on their own,
            // so `--rules D10` or `--rules W1`, as a failure's reproduce line prints it, checks them too.
            ([.d10, .w1], { try await self.syncRules() }),
        ]
        for (rules, body) in scenarios where wants(rules) {
            if contentTimedOut {
                recordBlocked(
                    rules + [.d10, .w1], step: "after content page timeout",
                    because:
                        "C1 failed: a content page took longer than the page timeout (enumerationTimeout); every other rule needs whole content pages",
                    transcript: [])
                continue
            }
            await scenario(rules, body)
        }
        recordSystemWarnings()
        return ConformanceRule.all.map { rule in
            if !selected.contains(rule.id) { return RuleResult(rule: rule, status: .skipped) }
            return results[rule.id] ?? RuleResult(rule: rule, status: .pass)
        }
    }

    /// Runs a scenario. An unexpected error fails the rule the scenario was checking (``checking(_:)``)
    /// and skips the rules after it, which it never reached (issue 30, item 5: one broken limit is
    /// reported by its own rule, not by every rule of the scenario); a scenario that marks no rule
    /// fails each of its rules that has no result yet.
    private func scenario(_ rules: [ConformanceRule], _ body: () async throws -> Void) async {
        stage = nil
        do {
            try await body()
        } catch {
            guard let stage, let position = rules.firstIndex(where: { $0.id == stage.id }) else {
                for rule in rules {
                    record(rule, Finding(explanation: "the check could not run: \(error)"))
                }
                return
            }
            record(stage, Finding(explanation: "the check could not run: \(error)", step: "checking \(stage.id)"))
            recordBlocked(
                Array(rules[(position + 1)...]), step: "after \(stage.id)",
                because: "the scenario stopped while checking \(stage.id) (\(error))", transcript: [])
        }
    }

    /// The rule the running scenario is checking now; the rules before it in the scenario are done.
    private var stage: ConformanceRule?

    /// Marks `rule` as the one the scenario checks from here on.
    func checking(_ rule: ConformanceRule) {
        stage = rule
    }

    // MARK: Recording

    /// Records a broken rule (the first finding per rule is kept).
    func record(_ rule: ConformanceRule, _ finding: Finding) {
        guard results[rule.id] == nil, options.rules?.contains(rule.id) ?? true else { return }
        results[rule.id] = RuleResult(
            rule: rule, status: rule.level == .must ? .fail : .warn, explanation: finding.explanation,
            step: finding.step, transcript: Array(finding.transcript.suffix(24)), reproduce: reproduce(rule.id))
    }

    /// Whether `rule` already has a finding.
    func failed(_ rule: ConformanceRule) -> Bool { results[rule.id] != nil }

    /// Marks rules that could not be checked because a step they depend on failed.
    func recordBlocked(
        _ rules: [ConformanceRule], step: String = "initial sync", because reason: String, transcript: [String]
    ) {
        for rule in rules where results[rule.id] == nil && (options.rules?.contains(rule.id) ?? true) {
            results[rule.id] = RuleResult(
                rule: rule, status: .skipped, explanation: "not checked: \(reason)", step: step,
                transcript: Array(transcript.suffix(12)), reproduce: reproduce(rule.id))
        }
    }

    // MARK: Data

    /// A new random contact.
    func makeContact() -> ContactRecord {
        nextIdentifier += 1
        let given = ["Ada", "Zoë", "Jean-Luc", "Émile", "Wesley", "Ruth", "Kwame", "Mei", "Olu", "Sven"]
        let family = ["Lovelace", "Nguyen", "de Groot", "Okafor", "Müller", "Tanaka", "O'Brien", "Silva"]
        var record = ContactRecord(identifier: "kit-\(options.seed)-\(nextIdentifier)")
        record.givenName = given.randomElement(using: &random)!
        record.familyName = family.randomElement(using: &random)!
        record.phoneNumbers = [
            .init(label: "_$!<Mobile>!$_", value: "+1 555 \(Int.random(in: 1_000_000...9_999_999, using: &random))")
        ]
        if Bool.random(using: &random) {
            record.emailAddresses = [
                .init(label: "_$!<Work>!$_", value: "\(record.givenName.lowercased())\(nextIdentifier)@example.com")
            ]
        }
        // Every fourth contact or so carries the less common values, so a provider that drops one is caught.
        if Int.random(in: 0..<4, using: &random) == 0 {
            record.phoneticGivenName = record.givenName.lowercased()
            record.previousFamilyName = "Née"
            record.dates = [.init(label: "_$!<Anniversary>!$_", value: "--06-21")]
            record.contactRelations = [.init(label: "_$!<Manager>!$_", value: "Grace Hopper")]
            var profile = ContactRecord.LabeledSocialProfile(label: nil)
            profile.service = "Twitter"
            profile.username = "kit\(nextIdentifier)"
            record.socialProfiles = [profile]
            record.instantMessageAddresses = [
                .init(label: "_$!<Home>!$_", username: "kit\(nextIdentifier)", service: "Skype")
            ]
            record.nonGregorianBirthday = .init(
                calendar: "chinese", era: 78, year: 40, month: 3, day: 15, isLeapMonth: false)
        }
        return record
    }

    /// A changed copy of `record`.
    func edited(_ record: ContactRecord) -> ContactRecord {
        var copy = record
        copy.note = "edit \(Int.random(in: 0...1_000_000, using: &random))"
        copy.jobTitle = ["", "Engineer", "Chef", "Pilot"].randomElement(using: &random)!
        return copy
    }

    /// Empty data, empty system store, and `count` fresh contacts.
    @discardableResult
    func freshData(count: Int) throws -> [ContactRecord] {
        try backend.reset()
        try subject.resetSystem()
        var added: [ContactRecord] = []
        for _ in 0..<count {
            let record = makeContact()
            try backend.add(record)
            added.append(record)
        }
        return added
    }

    func randomElement<T>(_ items: [T]) -> T? {
        items.randomElement(using: &random)
    }

    func randomInt(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    /// What differs between the system and the data, in words (nil when equal), seen through the
    /// backend's ``ConformanceBackend/comparable(_:)`` (the fields its store can hold).
    func difference(system: [ContactRecord], data: [ContactRecord]) -> String? {
        let backend = self.backend
        return Self.difference(system: system.map { backend.comparable($0) }, data: data.map { backend.comparable($0) })
    }

    /// What differs between the system and the data, in words (nil when equal): which contacts are
    /// missing or extra, and for each changed contact which fields differ, expected and got.
    static func difference(system: [ContactRecord], data: [ContactRecord]) -> String? {
        let systemByID = Dictionary(system.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let dataByID = Dictionary(data.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let missing = dataByID.keys.filter { systemByID[$0] == nil }.sorted()
        let extra = systemByID.keys.filter { dataByID[$0] == nil }.sorted()
        let stale = dataByID.keys.filter { id in systemByID[id].map { $0 != dataByID[id]! } ?? false }.sorted()
        var parts: [String] = []
        if !missing.isEmpty { parts.append("missing from the system: \(list(missing))") }
        if !extra.isEmpty {
            parts.append("deleted in the data but still in the system (resurrected or never deleted): \(list(extra))")
        }
        if !stale.isEmpty {
            let details = stale.prefix(3).map { id -> String in
                let fields = FieldDifference.between(expected: dataByID[id]!, got: systemByID[id]!)
                return "contact \(id) (\(dataByID[id]!.displayName)): "
                    + fields.map(\.description).joined(separator: "; ")
            }
            parts.append(
                "different in the system than in the data (a missed, altered or lossy update) for \(stale.count) contact(s): "
                    + details.joined(separator: " | ") + (stale.count > 3 ? " | and \(stale.count - 3) more" : ""))
        }
        if system.count != systemByID.count { parts.append("the system holds duplicate identifiers") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private static func list(_ ids: [String]) -> String {
        ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "")
    }
}
