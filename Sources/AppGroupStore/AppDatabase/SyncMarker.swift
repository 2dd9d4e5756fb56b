import Foundation

/// The generation marker a provider hands to the system, encoding "generation G, as of seq S".
///
/// Content pages carry it unchanged (rule R23); a change anchor `(marker, offset)` means
/// "seq S + offset in generation G". Because S is taken *before* the first page is read, the
/// marker is at or before the snapshot the pages come from (R29): changes made during a
/// content enumeration are delivered again by the first change enumeration, never lost.
///
/// A change anchor may also say that the first `within` changes of the next entry were delivered:
/// one journal entry can hold many changes (a `delete` of many ids is one atomic entry), and a batch
/// must still stay within the suggested batch size (R31).
///
/// Wire form (UTF-8): `cps1:<generation>:<seq>`, or `cps1:<generation>:<seq>:<within>` when `within` > 0.
public struct SyncMarker: Equatable, Sendable {
    /// The database generation.
    public var generation: String
    /// The sequence number the anchor's offset counts from.
    public var seq: Int
    /// How many changes of the entry after `seq + offset` were already delivered (0: none).
    public var within: Int

    /// A marker for `generation` as of `seq` (with `within` changes of the next entry delivered).
    public init(generation: String, seq: Int, within: Int = 0) {
        self.generation = generation
        self.seq = seq
        self.within = within
    }

    /// Decodes a marker; nil for anything this provider did not produce.
    public init?(data: Data) {
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix("cps1:") else { return nil }
        let fields = text.dropFirst(5).split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, let seq = Int(fields[1]), seq >= 0 else { return nil }
        if fields.count == 3 {
            guard let within = Int(fields[2]), within > 0 else { return nil }
            self.within = within
        } else {
            within = 0
        }
        generation = String(fields[0])
        self.seq = seq
    }

    /// The marker's bytes (never empty).
    public var data: Data {
        Data((within > 0 ? "cps1:\(generation):\(seq):\(within)" : "cps1:\(generation):\(seq)").utf8)
    }
}
