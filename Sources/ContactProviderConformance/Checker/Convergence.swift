import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation

/// One step of the convergence rule's random sequence.
enum ConvergenceOperation: Equatable, CustomStringConvertible {
    case add(Int)
    case update(pick: Int, salt: Int)
    case delete(pick: Int)
    /// `signalEnumerator()` and wait until the system is caught up; then the system must equal the data.
    case signal
    /// Run one page or batch, then edit a contact: a write in the middle of an enumeration.
    case stepThenEdit(pick: Int, salt: Int)
    /// Kill the provider and start a new one.
    case restart
    /// The data forgets its history (the provider must expire its anchors).
    case resetData
    /// `ContactProviderManager.reset()`.
    case resetSystem

    var description: String {
        switch self {
        case .add(let n): return "add contact #\(n)"
        case .update(let pick, _): return "update contact at index \(pick)"
        case .delete(let pick): return "delete contact at index \(pick)"
        case .signal: return "signal and wait"
        case .stepThenEdit(let pick, _): return "run one page/batch, then update contact at index \(pick)"
        case .restart: return "kill and relaunch the provider"
        case .resetData:
            return "reset the app data (new generation; with ContactProviderManager.reset() when the app calls it)"
        case .resetSystem: return "reset the system (ContactProviderManager.reset())"
        }
    }

    /// A seeded random sequence; it always ends with a signal.
    static func sequence(count: Int, seed: UInt64) -> [ConvergenceOperation] {
        var random = SeededRandom(seed: seed ^ 0xC0FF_EE00)
        var operations: [ConvergenceOperation] = []
        var added = 0
        for _ in 0..<max(count - 1, 0) {
            let roll = Int.random(in: 0..<100, using: &random)
            let pick = Int.random(in: 0..<1000, using: &random)
            let salt = Int.random(in: 0..<1_000_000, using: &random)
            switch roll {
            case 0..<32:
                added += 1
                operations.append(.add(added))
            case 32..<55: operations.append(.update(pick: pick, salt: salt))
            case 55..<70: operations.append(.delete(pick: pick))
            case 70..<86: operations.append(.signal)
            case 86..<92: operations.append(.stepThenEdit(pick: pick, salt: salt))
            case 92..<96: operations.append(.restart)
            case 96..<98: operations.append(.resetData)
            default: operations.append(.resetSystem)
            }
        }
        operations.append(.signal)
        return operations
    }
}

extension ConformanceChecker {
    /// V1: the random sequence, then a shrunk failing sequence if any.
    func convergenceRule() async throws {
        let operations = ConvergenceOperation.sequence(count: options.operations, seed: options.seed)
        guard var failure = try await replay(operations) else { return }
        // Shrink: drop chunks of operations while the run still fails (delta debugging), within a budget.
        var candidate = Array(operations.prefix(failure.index + 1))
        var budget = 120
        // Monotonic: a wall-clock step must not end (or stretch) the shrinking budget.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
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
        record(
            .v1,
            Finding(
                explanation:
                    "\(failure.explanation). Shrunk from \(operations.count) to \(candidate.count) operations: "
                    + steps.joined(separator: "; "),
                step: "operation \(failure.index + 1) of \(candidate.count): \(candidate[failure.index])",
                transcript: failure.transcript))
    }

    struct ReplayFailure {
        var index: Int
        var explanation: String
        var transcript: [String]
    }

    /// Runs `operations` from empty data; returns the first signal after which the system differs from the data.
    func replay(_ operations: [ConvergenceOperation]) async throws -> ReplayFailure? {
        try backend.reset()
        try subject.resetSystem()
        try await subject.restart()
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .add(let number):
                try backend.add(contact(number: number))
            case .update(let pick, let salt):
                let current = try backend.contacts()
                if !current.isEmpty { try backend.update(edit(current[pick % current.count], salt: salt)) }
            case .delete(let pick):
                let current = try backend.contacts()
                if !current.isEmpty { try backend.delete(identifier: current[pick % current.count].identifier) }
            case .stepThenEdit(let pick, let salt):
                let (report, transcript) = try await systemSync(maxSteps: 1)
                if let error = report.error {
                    return ReplayFailure(
                        index: index, explanation: "a sync step failed: \(error.message)", transcript: transcript)
                }
                let current = try backend.contacts()
                if !current.isEmpty { try backend.update(edit(current[pick % current.count], salt: salt)) }
            case .restart:
                try await subject.restart()
            case .resetData:
                try backend.reset()
                if options.resetCallsManagerReset { try subject.resetSystem() }
            case .resetSystem:
                try subject.resetSystem()
            case .signal:
                let (report, transcript) = try await syncUntilCaughtUp()
                if let error = report.error {
                    return ReplayFailure(
                        index: index, explanation: "the sync failed: \(error.message)", transcript: transcript)
                }
                if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
                    return ReplayFailure(index: index, explanation: difference, transcript: transcript)
                }
            }
        }
        return nil
    }

    /// Contact number `n` of the convergence run (the same for every replay).
    private func contact(number: Int) -> ContactRecord {
        var random = SeededRandom(seed: options.seed &+ UInt64(number) &* 7919)
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
        edit(record, salt: salt, startingAt: salt)
    }
}
