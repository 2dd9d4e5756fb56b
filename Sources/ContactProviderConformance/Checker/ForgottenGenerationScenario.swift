import AppGroupStore
import ContactProviderSystem
import Foundation

/// E1: after the data forgets its generation, the old anchor must expire (or yield the full truth).
///
/// After a content sync the app resets its store (a new generation: every contact replaced by three
/// new ones), and the kit asks for the changes from the anchor the system committed before. The
/// provider must answer `changeAnchorExpired` (the system then enumerates the content in full,
/// R38) or changes that bring the system exactly to the new data; changes that leave any contact
/// of the old generation, or miss one of the new, fail. When the app calls
/// `ContactProviderManager.reset()` with its store (``ConformanceOptions/resetCallsManagerReset``),
/// the kit does too, and the next sync must bring the system to the new data.
/// ``FarBehindScenario`` checks E1 again with a change log outrun by edits.
struct ForgottenGenerationScenario {
    /// Contacts before the reset.
    static let contactsBefore = 6
    /// Contacts the app adds after the reset.
    static let contactsAfter = 3
    /// Batches after which the kit stops asking for the changes from the old anchor.
    static let batchLimit = 40

    let checker: ConformanceChecker

    func run() async throws {
        try checker.freshData(count: Self.contactsBefore)
        guard let anchor = try await checker.completeContent(rules: [.e1]) else { return }
        try checker.backend.reset()
        for _ in 0..<Self.contactsAfter { try checker.backend.add(checker.makeContact()) }
        if checker.options.resetCallsManagerReset {
            // As the app does: the system forgets the domain with the data, so no anchor from before
            // the reset is ever asked for; the next sync must bring the system to the new data.
            try checker.subject.resetSystem()
            return try await checker.systemConverges(
                rule: .e1, step: "sync after the app reset its store and called ContactProviderManager.reset()")
        }
        var system = Dictionary(
            try checker.subject.systemContacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        var position = anchor
        var transcript: [String] = []
        for index in 0..<Self.batchLimit {
            let step = "after a reset of the data, enumerateChanges(startingAt: \(position)) (batch \(index + 1))"
            let result = try await checker.subject.probe(ProbeRequest(kind: .changes, position: position, size: 100))
            transcript += result.transcript
            switch result.end {
            case .error(let code, _) where code == "changeAnchorExpired" || code == "pageExpired":
                return try await checker.systemConverges(rule: .e1, step: "full re-enumeration after the expiry")
            case .batch(let next, let moreComing):
                for item in result.items { system[item.identifier] = item }
                for identifier in result.deleted { system[identifier] = nil }
                if !moreComing {
                    if let difference = checker.difference(
                        system: Array(system.values), data: try checker.backend.contacts())
                    {
                        checker.record(
                            .e1,
                            Finding(
                                explanation:
                                    "the anchor's generation was forgotten but the provider answered with changes instead of changeAnchorExpired, leaving: \(difference)",
                                step: step, transcript: transcript))
                    }
                    return
                }
                if next == position { return }
                position = next
            default:
                checker.record(
                    .e1,
                    Finding(
                        explanation: "the provider gave no valid answer to a forgotten anchor", step: step,
                        transcript: transcript))
                return
            }
        }
    }
}
