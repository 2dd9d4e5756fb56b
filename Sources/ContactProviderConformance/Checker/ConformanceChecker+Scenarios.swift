import Foundation

/// The scenarios of a run, in the order they run, each with the rules it checks.
///
/// One table: a rule is checked by the scenarios that list it, and a rule that none lists is
/// reported as not checked, never passed (``ConformanceChecker/uncovered(by:)``,
/// `ScenarioStageTests` checks that every rule has one).
extension ConformanceChecker {
    /// A scenario: the rules it checks, in the order it checks them (see ``checking(_:)``), and its body.
    struct Scenario {
        let rules: [ConformanceRule]
        let body: () async throws -> Void

        init(_ rules: [ConformanceRule], _ body: @escaping () async throws -> Void) {
            self.rules = rules
            self.body = body
        }
    }

    /// Every scenario, in the order a run takes them.
    var scenarios: [Scenario] {
        [
            // C4 comes last: after the walk and C5's second walk, it checks an empty store too.
            Scenario([.c1, .c2, .c3, .c6, .c5, .c4]) { try await ContentWalkScenario(checker: self).run() },
            // C5 again, for page order that changes from call to call (issue 43, class 6).
            Scenario([.c5]) { try await PageOrderScenario(checker: self).run() },
            Scenario([.f1]) { try await FieldShapesScenario(checker: self).run() },
            Scenario([.d5, .d2, .d1, .d4, .d6, .d7]) { try await ChangeBatchesScenario(checker: self).run() },
            // D2 again, the device's time zone changing between two syncs (issue 43, class 2).
            Scenario([.d2]) { try await TimeZoneChangeScenario(checker: self).run() },
            Scenario([.d3]) { try await ChangesDuringContentScenario(checker: self).run() },
            // D3 again, contacts of later pages deleted during content (issue 43, class 4).
            Scenario([.d3]) { try await ShrinkingContentScenario(checker: self).run() },
            Scenario([.d8]) { try await ReusedIdentifierScenario(checker: self).run() },
            Scenario([.d9]) { try await MidCallWritesScenario(checker: self).run() },
            Scenario([.d11]) { try await ChangesBetweenBatchesScenario(checker: self).run() },
            Scenario([.e1]) { try await ForgottenGenerationScenario(checker: self).run() },
            // E1 again, more edits between two syncs than a trimmed change log keeps (issue 43, class 1).
            Scenario([.e1]) { try await FarBehindScenario(checker: self).run() },
            // T1 first with the store torn when the provider starts (issue 43, item 12): a provider that
            // reads its store only when it starts fails here, with the reason that is its real bug (item 13),
            // before the scenarios that break the store under a running provider.
            Scenario([.t1]) { try await TornStoreAtStartScenario(checker: self).run() },
            Scenario([.t1]) { try await StoreFailureDuringSyncScenario(checker: self).run() },
            // T1 again, the store failing between two content pages (issue 43, class 5).
            Scenario([.t1]) { try await ContentFailureScenario(checker: self).run() },
            Scenario([.l1, .l2, .l3]) { try await LifecycleScenario(checker: self).run() },
            Scenario([.v1]) { try await ConvergenceScenario(checker: self).run() },
            // D10 and W1 are checked wherever the kit syncs; this scenario makes them hold on their own,
            // so `--rules D10` or `--rules W1`, as a failure's reproduce line prints it, checks them too.
            Scenario([.d10, .w1]) { try await CaughtUpSignalScenario(checker: self).run() },
            // Last: the store at the app's size is the largest thing the run makes.
            Scenario([.s2, .s1]) { try await SizeScenario(checker: self).run() },
        ]
    }

    /// The rules that no scenario of `scenarios` lists.
    static func uncovered(by scenarios: [Scenario]) -> [ConformanceRule] {
        let covered = Set(scenarios.flatMap(\.rules))
        return ConformanceRule.all.filter { !covered.contains($0) }
    }
}
