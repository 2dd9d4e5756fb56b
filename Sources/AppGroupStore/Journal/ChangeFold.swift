/// The net effect of a run of upserts and deletes: each identifier's final state (a record, or
/// deleted), in the order the identifiers were first touched.
///
/// Both sides of a change sync fold the same way: the provider's data source collapses journal
/// entries into one batch (so its `didUpdate` and `didDelete` are disjoint and their order cannot
/// matter), and the system's engine collapses a batch's observer calls into one commit (R32, R33).
package struct ChangeFold: Sendable {
    private var final: [String: ContactRecord?] = [:]
    private var order: [String] = []

    /// An empty fold.
    package init() {}

    /// `record` is the identifier's state now (an update or an addition).
    package mutating func upsert(_ record: ContactRecord) {
        touch(record.identifier)
        final[record.identifier] = .some(record)
    }

    /// `identifier` is deleted now.
    package mutating func delete(_ identifier: String) {
        touch(identifier)
        final[identifier] = .some(nil)
    }

    /// Whether the identifier's latest change in the fold is an upsert.
    package func isUpserted(_ identifier: String) -> Bool {
        if case .some(.some) = final[identifier] { return true }
        return false
    }

    /// The final records of the identifiers whose last change is an upsert, in first-touched order.
    package var updated: [ContactRecord] { order.compactMap { final[$0] ?? nil } }

    /// The identifiers whose last change is a delete, in first-touched order.
    package var deleted: [String] { order.filter { final[$0]! == nil } }

    /// Whether nothing was folded.
    package var isEmpty: Bool { order.isEmpty }

    private mutating func touch(_ identifier: String) {
        if final[identifier] == nil { order.append(identifier) }
    }
}
