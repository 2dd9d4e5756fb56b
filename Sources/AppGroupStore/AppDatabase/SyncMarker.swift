import Foundation

/// The generation marker a provider hands to the system, encoding "generation G, as of seq S".
///
/// Content pages carry it unchanged (rule R23); a change anchor `(marker, offset)` means
/// "seq S + offset in generation G". Because S is taken *before* the first page is read, the
/// marker is at or before the snapshot the pages come from (R29): changes made during a
/// content enumeration are delivered again by the first change enumeration, never lost.
///
/// Wire form (UTF-8): `cps1:<generation>:<seq>`.
public struct SyncMarker: Equatable, Sendable {
    public var generation: String
    public var seq: Int

    public init(generation: String, seq: Int) {
        self.generation = generation
        self.seq = seq
    }

    /// Decodes a marker; nil for anything this provider did not produce.
    public init?(data: Data) {
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix("cps1:") else { return nil }
        let fields = text.dropFirst(5).split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, let seq = Int(fields[1]), seq >= 0 else { return nil }
        generation = String(fields[0])
        self.seq = seq
    }

    /// The marker's bytes (never empty).
    public var data: Data { Data("cps1:\(generation):\(seq)".utf8) }
}
