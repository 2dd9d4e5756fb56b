import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation

/// Options of a conformance run.
public struct ConformanceOptions: Sendable {
    /// The seed of the random data and operations (the same seed reproduces the same run).
    public var seed: UInt64 = defaultSeed
    /// Random operations in the convergence rule (V1).
    public var operations: Int = defaultOperations
    /// Only these rules (nil: all): `[.d2, .v1]`; ids from a command line go through
    /// ``ConformanceRule/rules(named:)``.
    public var rules: Set<ConformanceRule>?
    /// `suggestedPageSize` during the run (small, so paging is exercised).
    public var pageSize: Int = 4
    /// `suggestedBatchSize` during the run.
    public var batchSize: Int = 3
    /// Seconds one call may take; also the limit for `invalidate()` (L2).
    public var timeoutSeconds: Double = defaultTimeoutSeconds
    /// Whether the app calls `ContactProviderManager.reset()` when it resets its store (issue 30,
    /// item 3). Then the kit does too, each time it resets the data in the middle of a check (E1,
    /// V1): the provider never sees an anchor from before the reset, and E1 checks that the sync
    /// after the reset brings the system to the new data.
    public var resetCallsManagerReset = false
    /// How many contacts the app holds: the size rules (S1, S2) fill the store with this many and
    /// sync them with the system's own page and batch sizes, timing every call (nil: the size
    /// rules are not checked). At most the system's item limit, 1,000,000 (R42).
    public var contacts: Int?
    /// Told what the run checks now, as each group of rules starts (`checking D1, D2, … (3 of 11)`).
    public var onProgress: (@Sendable (String) -> Void)?

    /// The seed a run uses unless told another.
    public static let defaultSeed: UInt64 = 42
    /// The convergence rule's operations unless told another number.
    public static let defaultOperations = 200
    /// The time limit of one call unless told another (the system's page limit, R41).
    public static let defaultTimeoutSeconds = DomainConfiguration().pageTimeoutSeconds

    /// Options; the defaults check every rule but the size rules with ``defaultSeed`` and
    /// ``defaultOperations``.
    public init(
        seed: UInt64 = defaultSeed, operations: Int = defaultOperations, rules: Set<ConformanceRule>? = nil,
        resetCallsManagerReset: Bool = false,
        contacts: Int? = nil
    ) {
        self.seed = seed
        self.operations = operations
        self.rules = rules
        self.resetCallsManagerReset = resetCallsManagerReset
        self.contacts = contacts
    }
}

/// A rule's outcome while checking.
struct Finding: Error {
    var explanation: String
    var step: String?
    var transcript: [String] = []
}

/// Runs the rules against one provider and backend.
///
/// Each scenario is a type of its own (`ContentWalkScenario`, `PageOrderScenario`, …, listed in
/// ``scenarios``) that holds its own constants and state; the checker holds what the whole run
/// shares: the options, the provider and backend, the results, the contacts' shapes, the running
/// scenario's data, and the steps several scenarios take (``freshData(count:)``,
/// ``completeContent(rules:)``, ``systemSync(maxSteps:expectedCalls:)``, ``systemConverges(rule:step:)``, …).
final class ConformanceChecker {
    let subject: ProviderUnderTest
    let backend: ConformanceBackend
    let options: ConformanceOptions
    let reproduce: (String) -> String
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
        scenarioData = ScenarioData(seed: options.seed)
    }

    /// Runs every selected rule; each scenario starts from empty data and an empty system store.
    func run() async -> [RuleResult] {
        var selected = Set(ConformanceRule.all.filter { options.rules?.contains($0) ?? true })
        if options.contacts == nil {
            // The size rules are asked for by giving the app's size; without it they are not
            // selected, and one asked for by name says what it needs.
            selected.subtract(ConformanceRule.sizeRules)
            recordBlocked(
                ConformanceRule.sizeRules.filter { options.rules?.contains($0) ?? false }, step: "size rules",
                because:
                    "the size rules run when the kit is told the app's size: --contacts N (ConformanceOptions.contacts)",
                transcript: [])
        }
        func wants(_ rules: [ConformanceRule]) -> Bool { rules.contains { selected.contains($0) } }
        let scenarios = self.scenarios
        // A rule no scenario lists would otherwise pass unchecked: it is reported as not checked.
        recordBlocked(
            Self.uncovered(by: scenarios).filter { selected.contains($0) }, step: "no scenario",
            because: "the kit has no scenario that checks this rule (a bug of the kit: please report it)",
            transcript: [])
        let chosen = scenarios.filter { wants($0.rules) }
        for (index, next) in chosen.enumerated() {
            let rules = next.rules
            if startFailure != nil { break }
            let names = rules.filter { selected.contains($0) }.map(\.id).sorted().joined(separator: ", ")
            options.onProgress?("checking \(names) (\(index + 1) of \(chosen.count))")
            if contentTimedOut {
                recordBlocked(
                    rules + [.d10, .w1], step: "after content page timeout",
                    because:
                        "C1 failed: a content page took longer than the page timeout (enumerationTimeout); every other rule needs whole content pages",
                    transcript: [])
                continue
            }
            await scenario(rules, next.body)
        }
        recordSystemWarnings()
        recordNoOpEdits()
        return ConformanceRule.all.map { rule in
            if let blocked = results[rule.id], blocked.status == .skipped { return blocked }
            if !selected.contains(rule) { return RuleResult(rule: rule, status: .skipped) }
            if startFailure != nil {
                return RuleResult(
                    rule: rule, status: .skipped, explanation: "not checked: the provider could not start")
            }
            return results[rule.id] ?? RuleResult(rule: rule, status: .pass, explanation: notes[rule.id])
        }
    }

    /// Runs a scenario. An unexpected error fails the rule the scenario was checking (``checking(_:)``)
    /// and skips the rules after it, which it never reached (issue 30, item 5: one broken limit is
    /// reported by its own rule, not by every rule of the scenario); a scenario that marks no rule
    /// fails each of its rules that has no result yet.
    private func scenario(_ rules: [ConformanceRule], _ body: () async throws -> Void) async {
        stage = nil
        startGenerator(for: rules[0])
        do {
            // A fresh provider process for each scenario: what a scenario finds never depends on what
            // an earlier one left in the provider's memory, so it fails alone as in the full run.
            try await subject.restart()
            try await body()
        } catch {
            if !providerAnswered, Self.isStartFailure(error) {
                // Every rule would fail alike; the run ends with this one error (item 14).
                startFailure = "\(error)"
                return
            }
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

    /// Each scenario's data, edits and identifiers depend on the seed and the scenario alone, not on
    /// the scenarios that ran before it: so `--rules D2`, as a reproduce line prints it, makes the
    /// very contacts and edits of the full run's D2 (each scenario starts from empty data and an
    /// empty system store; identifiers carry the scenario's rule, so none is reused across
    /// scenarios, where a provider's memory of an earlier one could tie them together).
    private func startGenerator(for rule: ConformanceRule) {
        scenarioData = ScenarioData(seed: options.seed, for: rule)
    }

    /// Set when the provider never answered and could not be started: the run ends with this error.
    var startFailure: String?
    /// Whether a comparison ever found the kit's data in the system (then the backend is the provider's).
    var dataHasArrived = false
    /// Whether the provider has answered a sync once in this run.
    var providerAnswered = false

    /// Whether `error` means the provider process did not start or died before its first answer.
    static func isStartFailure(_ error: any Error) -> Bool {
        switch error as? SystemClient.ClientError {
        case .providerExited, .launchBackoff, .timeout, .noExtension: return true
        default: return false
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
        guard results[rule.id] == nil, options.rules?.contains(rule) ?? true else { return }
        // Whatever rule a change batch failed, its anchors' bytes may show the mistake (issue 43, item 8).
        let explanation = LikelyMistake.explained(
            finding.explanation,
            by: LikelyMistake.versionsComparedAsText(in: finding.transcript, batchSize: options.batchSize))
        results[rule.id] = RuleResult(
            rule: rule, status: rule.level == .must ? .fail : .warn, explanation: explanation,
            step: finding.step, transcript: Array(finding.transcript.suffix(24)), reproduce: reproduce(rule.id))
    }

    /// What a passing rule's result says it did not cover (its explanation).
    private var notes: [String: String] = [:]

    /// Notes what `rule` could not cover; shown when it passes.
    func note(_ rule: ConformanceRule, _ text: String) {
        notes[rule.id] = text
    }

    /// Whether `rule` already has a finding.
    func failed(_ rule: ConformanceRule) -> Bool { results[rule.id] != nil }

    /// Marks rules that could not be checked because a step they depend on failed.
    func recordBlocked(
        _ rules: [ConformanceRule], step: String = "initial sync", because reason: String, transcript: [String]
    ) {
        for rule in rules where results[rule.id] == nil && (options.rules?.contains(rule) ?? true) {
            results[rule.id] = RuleResult(
                rule: rule, status: .skipped, explanation: "not checked: \(reason)", step: step,
                transcript: Array(transcript.suffix(12)), reproduce: reproduce(rule.id))
        }
    }

    // MARK: Data

    /// The running scenario's data generator (its randomness, identifiers and edit rotation), fresh
    /// for each scenario (``startGenerator(for:)``).
    var scenarioData: ScenarioData
    /// Edits the kit made in the whole run, and how many of them changed what the backend's store
    /// holds (item 11, ``recordNoOpEdits()``).
    var editsMade = 0
    var editsThatChangedTheStore = 0
    /// What makes each contact the kit wrote special (its identifier's shape, its collision, its F1
    /// shape), by identifier, so a failure names the shape beside the identifier (item 13). Kept for
    /// the whole run, not per scenario: a contact an earlier scenario wrote that a provider still
    /// serves is named by its shape too.
    var contactShapes: [String: String] = [:]

    /// Empty data, empty system store, and `count` fresh contacts.
    @discardableResult
    func freshData(count: Int) throws -> [ContactRecord] {
        try backend.reset()
        try subject.resetSystem()
        scenarioData.startDataSet()
        var added: [ContactRecord] = []
        for _ in 0..<count {
            let record = makeContact()
            try backend.add(record)
            added.append(record)
        }
        return added
    }

    /// A random element of `items`, from the running scenario's randomness.
    func randomElement<T>(_ items: [T]) -> T? {
        scenarioData.randomElement(items)
    }

    /// A random number in `range`, from the running scenario's randomness.
    func randomInt(_ range: ClosedRange<Int>) -> Int {
        scenarioData.randomInt(range)
    }

    /// What differs between the system and the data, in words (nil when equal), seen through the
    /// backend's ``ConformanceBackend/comparable(_:)`` (the fields its store can hold).
    func difference(system: [ContactRecord], data: [ContactRecord]) -> String? {
        let backend = self.backend
        let received = Set(system.map(\.identifier))
        if data.contains(where: { received.contains($0.identifier) }) { dataHasArrived = true }
        guard
            let difference = Self.difference(
                system: system.map { backend.comparable($0) }, data: data.map { backend.comparable($0) },
                shapes: contactShapes)
        else {
            dataHasArrived = true
            return nil
        }
        // Only while nothing of the kit's data has ever arrived: a provider that read it once does
        // read this backend's store.
        guard !data.isEmpty, !dataHasArrived else { return difference }
        // Nothing of the data arrived: most often the provider reads a store of its own, not the one
        // this backend writes (item 13).
        return difference
            + ". The system received none of the \(data.count) contacts: if the provider keeps its own store, check it through a backend that writes there (--backend seed-json, exec:COMMAND or carddav:URL; see 'contacts-host help conformance')"
    }

    /// What differs between the system and the data, in words (nil when equal): which contacts are
    /// missing or extra, and for each changed contact which fields differ, expected and got.
    /// `shapes` says, by identifier, what is special about a contact (printed beside it).
    static func difference(
        system: [ContactRecord], data: [ContactRecord], shapes: [String: String] = [:]
    ) -> String? {
        let systemByID = Dictionary(system.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let dataByID = Dictionary(data.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let missing = dataByID.keys.filter { systemByID[$0] == nil }.sorted()
        let extra = systemByID.keys.filter { dataByID[$0] == nil }.sorted()
        let stale = dataByID.keys.filter { id in systemByID[id].map { $0 != dataByID[id]! } ?? false }.sorted()
        var parts: [String] = []
        if !missing.isEmpty { parts.append("missing from the system: \(list(missing, shapes))") }
        if !extra.isEmpty {
            parts.append(
                "deleted in the data but still in the system (resurrected or never deleted): \(list(extra, shapes))")
        }
        if !stale.isEmpty {
            let details = stale.prefix(3).map { id -> String in
                let fields = FieldDifference.between(expected: dataByID[id]!, got: systemByID[id]!)
                let shape = shapes[id].map { "; \($0)" } ?? ""
                return "contact \(shown(id)) (\(dataByID[id]!.displayName)\(shape)): "
                    + fields.map(\.description).joined(separator: "; ")
            }
            parts.append(
                "different in the system than in the data (a missed, altered or lossy update) for \(stale.count) contact(s): "
                    + details.joined(separator: " | ") + (stale.count > 3 ? " | and \(stale.count - 3) more" : ""))
        }
        if system.count != systemByID.count { parts.append("the system holds duplicate identifiers") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// `identifier` as a report prints it: a long one cut to its first 40 characters.
    static func shown(_ identifier: String) -> String {
        identifier.count > 48 ? identifier.prefix(40) + "…" : identifier
    }

    /// Up to five identifiers, each with its shape when it has one.
    static func list(_ ids: [String], _ shapes: [String: String] = [:]) -> String {
        let named = ids.prefix(5).map { id in shapes[id].map { "\(shown(id)) (\($0))" } ?? shown(id) }
        return named.joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "")
    }
}
