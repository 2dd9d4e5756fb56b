import Foundation

/// The hand-written reader of the store's two header lines, the snapshot's and the journal's: the
/// fast path before Foundation's `JSONDecoder`, whose first use in a process costs more than the
/// rest of a short command's reading (issue 44: `signal --wait` counts the app database after each
/// sync; `status` reads both stores' headers).
///
/// As everywhere ``StrictJSONReader`` is used, a line it does not take (a key given twice, a number
/// with a fraction, metadata, anything unexpected) is decoded by Foundation, which then gives the
/// value or the error users have always seen; ``StoreHeaderCodecTests`` compares the two.
enum StoreHeaderCodec {
    private static let snapshotKeys = JSONKeyTable([
        "format", "kind", "generation", "previousGeneration", "replacedGeneration", "baseSeq", "count", "meta",
    ])
    private static let journalKeys = JSONKeyTable(["format", "kind", "generation", "baseSeq"])

    /// The snapshot header in `bytes` (the line without its newline), read by hand when it carries no
    /// metadata (the app database's never does), else by Foundation.
    static func decodeSnapshotHeader<Meta>(_ bytes: UnsafeRawBufferPointer) throws -> SnapshotHeader<Meta> {
        if let header: SnapshotHeader<Meta> = fastSnapshotHeader(bytes) { return header }
        return try JSONDecoder().decode(SnapshotHeader<Meta>.self, from: Data(bytes))
    }

    /// The journal header in `line` (without its newline): by hand, else by Foundation.
    static func decodeJournalHeader(_ line: Data) throws -> JournalHeader {
        if let header = line.withUnsafeBytes({ fastJournalHeader($0) }) { return header }
        return try JSONDecoder().decode(JournalHeader.self, from: line)
    }

    /// Nil when Foundation must decide.
    static func fastSnapshotHeader<Meta>(_ bytes: UnsafeRawBufferPointer) -> SnapshotHeader<Meta>? {
        StrictJSONReader.readWhole(bytes) { reader in
            var format: Int?
            var kind: String?
            var generation: String?
            var previousGeneration: String?
            var replacedGeneration: String?
            var baseSeq: Int?
            var count: Int?
            try reader.readObject(keys: snapshotKeys) { reader, index in
                switch index {
                case 0: format = try reader.readInt()
                case 1: kind = try reader.readString()
                case 2: generation = try reader.readString()
                case 3: previousGeneration = try reader.consumeNull() ? nil : try reader.readString()
                case 4: replacedGeneration = try reader.consumeNull() ? nil : try reader.readString()
                case 5: baseSeq = try reader.readInt()
                case 6: count = try reader.readInt()
                default:
                    // The metadata is the store's own type: only its absence is read here.
                    guard try reader.consumeNull() else { throw StrictJSONReader.GiveUp() }
                }
            }
            guard let format, let kind, let generation, let baseSeq, let count else { throw StrictJSONReader.GiveUp() }
            return SnapshotHeader(
                format: format, kind: kind, generation: generation, previousGeneration: previousGeneration,
                replacedGeneration: replacedGeneration, baseSeq: baseSeq, count: count, meta: nil)
        }
    }

    /// Nil when Foundation must decide.
    static func fastJournalHeader(_ bytes: UnsafeRawBufferPointer) -> JournalHeader? {
        StrictJSONReader.readWhole(bytes) { reader in
            var format: Int?
            var kind: String?
            var generation: String?
            var baseSeq: Int?
            try reader.readObject(keys: journalKeys) { reader, index in
                switch index {
                case 0: format = try reader.readInt()
                case 1: kind = try reader.readString()
                case 2: generation = try reader.readString()
                default: baseSeq = try reader.readInt()
                }
            }
            guard let format, let kind, let generation, let baseSeq else { throw StrictJSONReader.GiveUp() }
            return JournalHeader(format: format, kind: kind, generation: generation, baseSeq: baseSeq)
        }
    }
}
