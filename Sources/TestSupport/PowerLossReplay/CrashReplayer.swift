import Foundation

/// Where a crash state comes from: a model, a cut point and (for torn writes and holes) a variant.
package struct CrashPoint: Sendable, CustomStringConvertible {
    /// The persistence model.
    package let model: PersistenceModel
    /// How many operations were issued before the cut (0: none; for a torn write, the torn one
    /// is operation `issued`, counted from 1).
    package let issued: Int
    /// The number of operations of the whole command.
    package let total: Int
    /// The operation the cut follows (or tears), nil before the first.
    package let operation: FileOperation?
    /// The torn prefix or the hole pattern, when the model has several states per cut.
    package let variant: String?

    /// A cut point (the replayer makes them; a test of the check can too).
    package init(
        model: PersistenceModel, issued: Int, total: Int, operation: FileOperation?, variant: String? = nil
    ) {
        self.model = model
        self.issued = issued
        self.total = total
        self.operation = operation
        self.variant = variant
    }

    /// Whether this cut follows the command's last operation under a model that must then show the
    /// command's own change (``PersistenceModel/requiresCommandResultAtEnd``).
    package var requiresCommandResult: Bool { issued == total && model.requiresCommandResultAtEnd }

    /// E.g. `POSIX minimum, cut after operation 7 of 12: rename(a, b)`; enough to find the cut again.
    package var description: String {
        var text: String
        if model == .tornWrite, let operation {
            text = "\(model), operation \(issued) of \(total) torn: \(operation)"
        } else if let operation {
            text = "\(model), cut after operation \(issued) of \(total): \(operation)"
        } else {
            text = "\(model), cut before the first of \(total) operations"
        }
        if let variant { text += " (\(variant))" }
        return text
    }
}

/// One distinct crash state: the tree on disk, and every cut point that leaves exactly it.
package struct CrashState: Sendable {
    /// The App Group as it would be found after the crash.
    package let tree: FileTree
    /// Every model and cut that leaves this tree (the first one names it in messages).
    package var points: [CrashPoint]

    /// A crash state left by `points`.
    package init(tree: FileTree, points: [CrashPoint]) {
        self.tree = tree
        self.points = points
    }

    /// Whether any cut that leaves this tree must show the command's change.
    package var requiresCommandResult: Bool { points.contains { $0.requiresCommandResult } }
    /// The cut to name when the command's change is missing (or the first one).
    package var namingPoint: CrashPoint { points.first { $0.requiresCommandResult } ?? points[0] }
}

/// Builds the crash states of a recorded command: starting from the App Group before the command,
/// the state at every cut point (before the first operation and after each one) under each
/// ``PersistenceModel``, deduplicated by the tree's bytes so equal states are checked once.
package enum CrashReplayer {
    /// The distinct crash states, in the order they first appear.
    ///
    /// - Parameters:
    ///   - initial: a byte-exact copy of the App Group taken before the command.
    ///   - operations: what the command issued (``FileOperationRecorder``).
    ///   - models: which models to apply (all six by default).
    package static func crashStates(
        from initial: FileTree, operations: [FileOperation], models: [PersistenceModel] = PersistenceModel.allCases
    ) throws -> [CrashState] {
        var states: [CrashState] = []
        var index: [FileTree: Int] = [:]
        func add(_ tree: FileTree, _ point: CrashPoint) {
            if let existing = index[tree] {
                states[existing].points.append(point)
            } else {
                index[tree] = states.count
                states.append(CrashState(tree: tree, points: [point]))
            }
        }
        var system = try SimulatedFileSystem(initial)
        let total = operations.count
        for issued in 0...total {
            let operation = issued == 0 ? nil : operations[issued - 1]
            if issued > 0 {
                if models.contains(.tornWrite), case .write(let path, _, let bytes) = operations[issued - 1] {
                    for length in Set([1, bytes.count / 2, bytes.count - 1]).sorted() where length > 0 {
                        guard length < bytes.count else { continue }
                        var torn = system
                        try torn.apply(
                            .write(
                                path: path, offset: offsetOf(operations[issued - 1]), bytes: Array(bytes.prefix(length))
                            ))
                        add(
                            processKillTree(torn),
                            CrashPoint(
                                model: .tornWrite, issued: issued, total: total, operation: operation,
                                variant: "the first \(length) of \(bytes.count) bytes"))
                    }
                }
                do {
                    try system.apply(operations[issued - 1])
                } catch let error as ReplayError {
                    throw ReplayError("operation \(issued) of \(total), \(operations[issued - 1]): \(error)")
                }
            }
            for model in models where model != .tornWrite {
                for (variant, tree) in trees(system, model) {
                    add(
                        tree,
                        CrashPoint(model: model, issued: issued, total: total, operation: operation, variant: variant))
                }
            }
        }
        return states
    }

    private static func offsetOf(_ operation: FileOperation) -> FileOperation.Offset {
        if case .write(_, let offset, _) = operation { return offset }
        return .end
    }

    private static func processKillTree(_ system: SimulatedFileSystem) -> FileTree {
        system.tree(
            rootExists: system.rootExists, entries: { system.inodes[$0]?.entries ?? [:] },
            bytes: { system.inodes[$0]?.bytes ?? [] })
    }

    /// The crash trees of `model` at the current cut (one, or one per variant).
    private static func trees(_ system: SimulatedFileSystem, _ model: PersistenceModel) -> [(String?, FileTree)] {
        let live: (Int) -> [String: Int] = { system.inodes[$0]?.entries ?? [:] }
        let durable: (Int) -> [UInt8] = { system.durableBytes[$0] ?? [] }
        switch model {
        case .processKill, .tornWrite:
            return [(nil, processKillTree(system))]
        case .barrierOnly:
            return [
                (
                    nil,
                    system.tree(
                        rootExists: system.committedRoot, entries: { system.committedEntries[$0] ?? [:] },
                        bytes: durable)
                )
            ]
        case .ext4Ordered:
            return [(nil, system.tree(rootExists: system.rootExists, entries: live, bytes: durable))]
        case .posixMinimum:
            return [
                (
                    nil,
                    system.tree(
                        rootExists: system.durableRoot, entries: { system.durableEntries[$0] ?? [:] }, bytes: durable)
                )
            ]
        case .writebackHoles:
            let allZero = system.tree(rootExists: system.rootExists, entries: live) { id in
                holed(system.inodes[id]?.bytes ?? [], system.unsynced[id] ?? [], middlePageOnly: false)
            }
            let middlePage = system.tree(rootExists: system.rootExists, entries: live) { id in
                holed(system.inodes[id]?.bytes ?? [], system.unsynced[id] ?? [], middlePageOnly: true)
            }
            return [
                ("every unsynced byte reads as zero", allZero),
                ("one page in the middle of each unsynced write reads as zero", middlePage),
            ]
        }
    }

    /// `bytes` with the unsynced `ranges` zeroed: all of each, or the 4 KiB page (file-aligned, as
    /// the page cache writes back) around each range's middle, cut to the range.
    private static func holed(_ bytes: [UInt8], _ ranges: [Range<Int>], middlePageOnly: Bool) -> [UInt8] {
        guard !ranges.isEmpty else { return bytes }
        var result = bytes
        for range in ranges {
            var hole = range
            if middlePageOnly {
                let middle = (range.lowerBound + range.upperBound) / 2
                let page = middle / 4096 * 4096
                hole = max(range.lowerBound, page)..<min(range.upperBound, page + 4096)
            }
            let clipped = hole.clamped(to: 0..<result.count)
            result.replaceSubrange(clipped, with: repeatElement(0, count: clipped.count))
        }
        return result
    }
}
