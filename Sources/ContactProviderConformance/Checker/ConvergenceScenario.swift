import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation

/// V1: the system converges on the data through any sequence of edits, syncs, restarts and resets.
///
/// A seeded random sequence of ``ConvergenceOperation``s (``ConformanceOptions/operations`` of them)
/// is replayed from empty data; after each signal the system must hold exactly the data. When it
/// does not, the failing sequence is shrunk (delta debugging, within a budget of replays and time)
/// to the fewest operations that still fail, which the report lists. Contacts and edits depend on
/// the operation and the seed alone, so every replay of a shorter sequence makes the same ones.
struct ConvergenceScenario {
    /// Replays the shrinking may make.
    static let shrinkingReplays = 120
    /// Seconds the shrinking may take.
    static let shrinkingSeconds = 20

    let checker: ConformanceChecker

    func run() async throws {
        let operations = ConvergenceOperation.sequence(count: checker.options.operations, seed: checker.options.seed)
        guard var failure = try await replay(operations) else { return }
        // Shrink: drop chunks of operations while the run still fails (delta debugging), within a budget.
        var candidate = Array(operations.prefix(failure.index + 1))
        var budget = Self.shrinkingReplays
        // Monotonic: a wall-clock step must not end (or stretch) the shrinking budget.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(Self.shrinkingSeconds)
        var chunk = max(candidate.count / 2, 1)
        while chunk >= 1, budget > 0, clock.now < deadline {
            var start = 0
            var removedAny = false
            while start < candidate.count, budget > 0, clock.now < deadline {
                var smaller = candidate
                smaller.removeSubrange(start..<min(start + chunk, candidate.count))
                if smaller.last != .signal { smaller.append(.signal) }
                budget -= 1
                if smaller.count < candidate.count, let smallerFailure = try await replay(smaller) {
                    candidate = Array(smaller.prefix(smallerFailure.index + 1))
                    failure = smallerFailure
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        let steps = candidate.enumerated().map { "\($0.offset + 1). \($0.element)" }
        checker.record(
            .v1,
            Finding(
                explanation:
                    "\(failure.explanation). Shrunk from \(operations.count) to \(candidate.count) operations: "
                    + steps.joined(separator: "; "),
                step: "operation \(failure.index + 1) of \(candidate.count): \(candidate[failure.index])",
                transcript: failure.transcript))
    }

    /// The first signal of a replay after which the system differed from the data.
    struct ReplayFailure {
        var index: Int
        var explanation: String
        var transcript: [String]
    }

    /// Runs `operations` from empty data; returns the first signal after which the system differs from the data.
    private func replay(_ operations: [ConvergenceOperation]) async throws -> ReplayFailure? {
        try checker.backend.reset()
        try checker.subject.resetSystem()
        try await checker.subject.restart()
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .add(let number):
                try checker.backend.add(contact(number: number))
            case .update(let pick, let salt):
                let current = try checker.backend.contacts()
                if !current.isEmpty { try checker.backend.update(edit(current[pick % current.count], salt: salt)) }
            case .delete(let pick):
                let current = try checker.backend.contacts()
                if !current.isEmpty { try checker.backend.delete(identifier: current[pick % current.count].identifier) }
            case .stepThenEdit(let pick, let salt):
                let (report, transcript) = try await checker.systemSync(maxSteps: 1)
                if let error = report.error {
                    return ReplayFailure(
                        index: index, explanation: "a sync step failed: \(error.message)", transcript: transcript)
                }
                let current = try checker.backend.contacts()
                if !current.isEmpty { try checker.backend.update(edit(current[pick % current.count], salt: salt)) }
            case .restart:
                try await checker.subject.restart()
            case .resetData:
                try checker.backend.reset()
                if checker.options.resetCallsManagerReset { try checker.subject.resetSystem() }
            case .resetSystem:
                try checker.subject.resetSystem()
            case .signal:
                let (report, transcript) = try await checker.syncUntilCaughtUp()
                if let error = report.error {
                    return ReplayFailure(
                        index: index, explanation: "the sync failed: \(error.message)", transcript: transcript)
                }
                if let difference = checker.difference(
                    system: try checker.subject.systemContacts(), data: try checker.backend.contacts())
                {
                    return ReplayFailure(index: index, explanation: difference, transcript: transcript)
                }
            }
        }
        return nil
    }

    /// Contact number `n` of the convergence run (the same for every replay).
    private func contact(number: Int) -> ContactRecord {
        var random = SeededRandom(seed: checker.options.seed &+ UInt64(number) &* 7919)
        var record = ContactRecord(identifier: IdentifierShape.identifier(prefix: "v", number: number))
        record.givenName = ["Ada", "Zoë", "Émile", "Kwame", "Mei"].randomElement(using: &random)!
        record.familyName = ["Lovelace", "Nguyen", "Okafor", "Müller"].randomElement(using: &random)!
        record.phoneNumbers = [
            .init(label: "_$!<Mobile>!$_", value: "+1 555 \(Int.random(in: 1_000_000...9_999_999, using: &random))")
        ]
        return record
    }

    /// One held field of `record` changed, the field and value chosen by `salt` (the same in every replay).
    private func edit(_ record: ContactRecord, salt: Int) -> ContactRecord {
        checker.edit(record, salt: salt, startingAt: salt)
    }
}
