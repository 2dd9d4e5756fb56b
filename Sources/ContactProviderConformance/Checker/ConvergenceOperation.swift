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
