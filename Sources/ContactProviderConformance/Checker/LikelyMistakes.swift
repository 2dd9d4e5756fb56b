import ContactProviderSystem
import Foundation

/// The mistake behind a finding, named in words a provider author acts on (issue 43, item 8).
///
/// A rule sees a symptom (a contact twice, a change re-sent, a deletion that never arrived); the
/// mistake that usually causes it can often be read from evidence the kit holds: the anchors' bytes,
/// the offsets a page returned, the calls of the batch before. Each function here checks that
/// evidence and returns the sentence that names the mistake, or nil when the evidence does not fit
/// (then the rule keeps its symptom message: the kit never guesses). Every such sentence is typed
/// here, in one place, and each starts the finding's explanation, so the report's root cause
/// (``RootCause``) is the mistake, not the symptom.
enum LikelyMistake {
    /// A finding's explanation: the mistake first (when its evidence fits), then what the kit saw. One
    /// that already names a mistake keeps it (the first evidence found wins).
    static func explained(_ symptom: String, by mistake: String?) -> String {
        guard let mistake, !symptom.contains(Self.sawSeparator) else { return symptom }
        return mistake + Self.sawSeparator + symptom
    }

    /// Between the mistake and the symptom.
    static let sawSeparator = ". What the kit saw: "

    // MARK: Versions compared as text

    /// The version an anchor stands for, read from its bytes: the number its marker ends with plus its
    /// offset (`("cps1:G:94", 3)` is version 97), with the marker's text before that number; nil when
    /// the marker does not end in a number.
    static func version(_ anchor: SyncPosition) -> (prefix: String, version: Int)? {
        guard let text = String(data: anchor.generationMarker, encoding: .utf8) else { return nil }
        let digits = text.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 18, let number = Int(String(digits.reversed())) else { return nil }
        return (String(text.dropLast(digits.count)), number + anchor.offset)
    }

    /// The change batches of `transcript` show versions compared as text: one of them moved its anchor
    /// back to a version that sorts after the start's as text (`100` → `9`: "9" is after "100", the
    /// offset went −91), or the last one said moreComing but kept its anchor after changes where the
    /// versions it reached (up to `batchSize` past the start) cross a power of ten (`9` → `10`: "10"
    /// sorts before "9") while an earlier batch did advance the anchor (one of the transcript, or the
    /// one that moved the offset above 0). A provider that keeps the newer of two versions by
    /// comparing their text does both. A provider whose anchor never moves (a stale or stuck anchor)
    /// is not this: it stays without a power of ten in sight, or from its first batch. The versions
    /// are read two ways from the anchors' bytes: the offsets, when the markers are the same, and the
    /// number a marker ends with plus the offset (``version(_:)``).
    static func versionsComparedAsText(in transcript: [String], batchSize: Int) -> String? {
        let batches = TranscriptBatch.all(in: transcript).compactMap {
            batch -> (TranscriptBatch, SyncPosition, SyncPosition)? in
            guard let start = SyncPosition(printed: batch.start),
                let end = batch.end.flatMap(SyncPosition.init(printed:))
            else { return nil }
            return (batch, start, end)
        }
        // An anchor that went back, anywhere: an anchor never should.
        for (_, start, end) in batches {
            for (name, read) in readings {
                guard let (a, b) = read(start, end), b < a, String(b) > String(a) else { continue }
                return Self.asText(
                    "the anchor went back from \(name) \(a) \(start) to \(name) \(b) \(end), and \"\(b)\" sorts after \"\(a)\" as text"
                )
            }
        }
        guard let (last, start, end) = batches.last else { return nil }
        for (name, read) in readings {
            guard let (a, b) = read(start, end) else { continue }
            let advancedBefore = batches.dropLast().contains { batch, from, to in
                batch.changes > 0 && (read(from, to).map { $0.1 > $0.0 } ?? false)
            }
            // An offset above 0 under the same marker moved there in an earlier batch (offsets start
            // at 0 after content, R25): the anchor advanced before, in this transcript or an earlier one.
            if b <= a, last.moreComing == true, last.changes > 0, advancedBefore || (name == "offset" && a > 0),
                let crossed = sequence(first: 10, next: { $0 < Int.max / 10 ? $0 * 10 : nil }).first(where: { $0 > a }),
                crossed <= a + max(batchSize, last.changes), String(crossed) < String(a)
            {
                return Self.asText(
                    "the batch from \(start) delivered \(last.changes) \(last.changes == 1 ? "change" : "changes") and said moreComing but kept its anchor at \(name) \(b), where the \(name)s it reached pass \(crossed), and \"\(crossed)\" sorts before \"\(a)\" as text, though \(advancedBefore ? "the batches before it advanced the anchor" : "an earlier batch had moved it to offset \(a)")"
                )
            }
        }
        return nil
    }

    /// The two ways of reading versions from a batch's anchors, each giving (start's, end's) or nil.
    private static var readings: [(String, (SyncPosition, SyncPosition) -> (Int, Int)?)] {
        [
            ("offset", { $0.generationMarker == $1.generationMarker ? ($0.offset, $1.offset) : nil }),
            (
                "version",
                { start, end in
                    guard let from = version(start), let to = version(end), from.prefix == to.prefix else {
                        return nil
                    }
                    return (from.version, to.version)
                }
            ),
        ]
    }

    /// The words of ``versionsComparedAsText(in:batchSize:)`` around its evidence.
    private static func asText(_ evidence: String) -> String {
        "anchor versions compare as text: \(evidence) — compare them as numbers (an anchor must move past the changes it hands over, R34, R40)"
    }

    // MARK: A page's next offset one short (C3)

    /// C3 where page `earlier` (at `earlierPosition`, the one before) ended with
    /// `didFinishEnumeratingPage(upTo: next)` one item short of the items it delivered, and the page
    /// after it began again with its last item `identifier`: the next offset was computed from the
    /// last item's index.
    static func pageOffsetOneShort(
        identifier: String, earlier: Int, earlierPosition: SyncPosition, earlierResult: ProbeResult, later: Int
    ) -> String? {
        guard later == earlier + 1, case .page(let next) = earlierResult.end,
            earlierResult.items.last?.identifier == identifier,
            next.offset == earlierPosition.offset + earlierResult.items.count - 1
        else { return nil }
        let count = earlierResult.items.count
        return
            "the page said its next page starts one item early (off by one): page \(earlier + 1) delivered \(count) \(count == 1 ? "item" : "items") from offset \(earlierPosition.offset) and ended with didFinishEnumeratingPage(upTo: \(next)), so page \(later + 1) began again with its last item, \(ConformanceChecker.shown(identifier)) — the next page's offset is the page's offset plus the items it delivered (page.offset + items.count, Apple's sample; R22)"
    }

    // MARK: moreComing one batch early (D10)

    /// D10 where the sync before ended with a batch that advanced its anchor and said
    /// `moreComing: false`, and the signal after it brought, from exactly that anchor, changes that
    /// batch had not sent: the provider ended the session with changes still to come (an off by one
    /// when one was left), not an anchor that failed to move. `before` is the caught-up sync's
    /// transcript, `after` the next one's; nil when the evidence does not fit (a stale anchor, changes
    /// sent again).
    static func moreComingEndedEarly(before: [String], after: [String], updated: Int, deleted: Int) -> String? {
        guard let last = TranscriptBatch.all(in: before).last, let next = TranscriptBatch.all(in: after).first,
            let end = last.end, last.moreComing == false, end != last.start, next.start == end,
            next.changes > 0, !next.items.contains(where: { last.items.contains($0) })
        else { return nil }
        let left = updated + deleted
        return
            "moreComing was false with \(left == 1 ? "one change" : "\(left) changes") still to come\(left == 1 ? " (off by one)" : ""): the last batch ended the session, its anchor \(end) past what it sent, and the next signal brought from that anchor \(updated) \(updated == 1 ? "update" : "updates") and \(deleted) \(deleted == 1 ? "deletion" : "deletions") the batch had not sent — moreComing must be true while any change is left after the batch (R34, R40)"
    }

    // MARK: Deletion records pruned (E1)

    /// E1 far behind: the provider answered the old anchor with changes (no expiry), every update and
    /// addition since arrived, and only deletions are missing (`stillThere`, deleted in the data, still
    /// in the system): its change log dropped the deletion records an anchor still needed.
    static func prunedDeletions(stillThere: [String], missing: Int, outdated: Int, expired: Bool) -> String? {
        guard !expired, !stillThere.isEmpty, missing == 0, outdated == 0 else { return nil }
        return
            "deletions were pruned from the change log while an anchor still needed them: the system still holds \(ConformanceChecker.list(stillThere)), deleted since its last sync, though every update and addition since arrived — keep deletion records as long as an anchor from before them is answered, or expire anchors older than the oldest record kept (changeAnchorExpired, R38)"
    }
}

/// One change batch read back from a system or probe transcript: the anchor it started from and the
/// one it ended at (as printed), moreComing, and the items it delivered (identifiers).
struct TranscriptBatch: Equatable {
    var start: String
    var end: String?
    var moreComing: Bool?
    var items: [String] = []
    var changes = 0

    /// The batches of `transcript`, in order (`→ enumerateChanges(startingAt: …)` and the calls after it).
    static func all(in transcript: [String]) -> [TranscriptBatch] {
        var batches: [TranscriptBatch] = []
        for raw in transcript {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("→ ") {
                let call = "→ enumerateChanges(startingAt: "
                if line.hasPrefix(call), line.hasSuffix(")") {
                    batches.append(TranscriptBatch(start: String(line.dropFirst(call.count).dropLast())))
                } else {
                    batches.append(TranscriptBatch(start: ""))
                }
                continue
            }
            guard !batches.isEmpty, !batches[batches.count - 1].start.isEmpty else { continue }
            let finish = "didFinishEnumeratingChanges(upTo: "
            if line.hasPrefix(finish), let comma = line.range(of: ", moreComing: ", options: .backwards) {
                batches[batches.count - 1].end = String(
                    line[line.index(line.startIndex, offsetBy: finish.count)..<comma.lowerBound])
                batches[batches.count - 1].moreComing = line[comma.upperBound...].hasPrefix("true")
            } else if line.hasPrefix("didUpdate(") || line.hasPrefix("didDelete(") {
                let (count, items) = Self.items(of: line, named: line.hasPrefix("didUpdate("))
                batches[batches.count - 1].changes += count
                batches[batches.count - 1].items += items
            }
        }
        return batches.filter { !$0.start.isEmpty }
    }

    /// `didUpdate(2 items: a "Ada", b "Bo")` → 2, [a, b]; `didDelete(1 item: c)` → 1, [c].
    static func items(of line: String, named: Bool) -> (Int, [String]) {
        guard let open = line.firstIndex(of: "("), let colon = line.range(of: ": ") else { return (0, []) }
        let count = Int(line[line.index(after: open)...].prefix { $0.isNumber }) ?? 0
        let list = line[colon.upperBound...].dropLast()
        let items = list.components(separatedBy: ", ").map { part -> String in
            guard named, let quote = part.range(of: " \"", options: .backwards) else { return part }
            return String(part[..<quote.lowerBound])
        }
        return (count, items)
    }
}

extension SyncPosition {
    /// A position read back from its ``description`` (`("marker", 3)`, `(initial, 0)`); nil for a
    /// marker printed in base64 (not UTF-8) or text of another shape.
    init?(printed text: String) {
        guard text.hasPrefix("("), text.hasSuffix(")"), let comma = text.range(of: ", ", options: .backwards),
            let offset = Int(text[comma.upperBound..<text.index(before: text.endIndex)])
        else { return nil }
        let marker = text[text.index(after: text.startIndex)..<comma.lowerBound]
        if marker == "initial" {
            self.init(generationMarker: Data(), offset: offset)
        } else if marker.count >= 2, marker.hasPrefix("\""), marker.hasSuffix("\"") {
            self.init(generationMarker: Data(marker.dropFirst().dropLast().utf8), offset: offset)
        } else {
            return nil
        }
    }
}
