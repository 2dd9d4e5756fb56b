import AppGroupStore
import ContactProviderSystem
import Foundation

/// E1, issue 43 class 1: a system far behind. A provider that keeps a change log trims it (a journal
/// of the last N changes, a server's retained sync tokens: Nextcloud keeps 10,000); an anchor older
/// than the log's start can no longer be answered, and the provider must say so with
/// `changeAnchorExpired`, after which the system enumerates the content in full (R38). One that
/// forgets the check answers from the oldest change it still has: a partial change set the system
/// takes for the whole, so the earliest edits (here a deletion and an addition) are lost for good.
/// E1's first scenario forgets a whole generation (a reset of the data), which such a provider does
/// notice. Here the system syncs content, the app makes ``edits`` edits, more than a trimmed log
/// plausibly keeps on a phone between two syncs of a small address book, and the system syncs again:
/// it must hold exactly the data, whether the provider answered from its log or expired the anchor.
struct FarBehindScenario {
    /// Contacts of the scenario.
    static let contacts = 8
    /// Edits between the two syncs: the deletion and addition first, then updates.
    static let edits = 300

    let checker: ConformanceChecker

    func run() async throws {
        checker.checking(.e1)
        // Identifiers of their own, none shared with the rule's first scenario.
        checker.scenarioData.identifierPrefix += "-far-behind"
        let data = try checker.freshData(count: Self.contacts)
        guard try await checker.completeContent(rules: [.e1]) != nil else { return }
        // The earliest edits are the ones a trimmed log forgets: a deletion and an addition, which no
        // later update of another contact brings back.
        guard let victim = checker.randomElement(data) else { return }
        try checker.backend.delete(identifier: victim.identifier)
        let added = checker.makeContact()
        try checker.backend.add(added)
        var current = try checker.backend.contacts()
        for index in 0..<(Self.edits - 2) {
            let position = index % current.count
            current[position] = checker.edited(current[position])
            try checker.backend.update(current[position])
        }
        let (report, transcript) = try await checker.syncUntilCaughtUp()
        let step =
            "sync after \(Self.edits) edits since the last one (first: \(victim.identifier) deleted, \(added.identifier) added)"
        if let error = report.error {
            checker.record(
                .e1, Finding(explanation: "the sync failed: \(error.message)", step: step, transcript: transcript))
            return
        }
        let system = try checker.subject.systemContacts()
        let now = try checker.backend.contacts()
        if let difference = checker.difference(system: system, data: now) {
            let symptom =
                "after \(Self.edits) edits between two syncs the system does not hold the data: \(difference). A provider whose change log no longer reaches back to the anchor it is asked from must answer changeAnchorExpired, and the system then enumerates the content in full (R38); changes from the oldest one it still has are a partial answer the system takes for the whole"
            // Only deletions missing, the anchor answered: the log pruned its deletion records (item 8).
            let inData = Dictionary(now.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
            let inSystem = Dictionary(system.map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
            let backend = checker.backend
            let mistake = LikelyMistake.prunedDeletions(
                stillThere: inSystem.keys.filter { inData[$0] == nil }.sorted(),
                missing: inData.keys.filter { inSystem[$0] == nil }.count,
                outdated: inData.filter { id, record in
                    inSystem[id].map { backend.comparable($0) != backend.comparable(record) } ?? false
                }.count,
                expired: report.restarted)
            checker.record(
                .e1,
                Finding(
                    explanation: LikelyMistake.explained(symptom, by: mistake), step: step, transcript: transcript))
        }
    }
}
