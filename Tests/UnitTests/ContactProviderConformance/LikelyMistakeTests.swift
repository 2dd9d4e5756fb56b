import AppGroupStore
import ContactProviderSystem
import Foundation
import Testing

@testable import ContactProviderConformance

/// Issue 43, item 8: the mistake is named only when the evidence fits; otherwise the rule keeps its
/// symptom message. Each case here is one the kit must not take for the mistake (a stale anchor, a
/// stuck one, changes sent again, a lost addition), beside the one it must. The end-to-end goldens
/// (LikelyMistakeReportTests) show each message from a real run.
@Suite("Conformance: the likely mistake, from evidence only")
struct LikelyMistakeTests {
    /// A change batch as the system's trace prints it.
    static func batch(_ marker: String, from start: Int, to end: Int, moreComing: Bool, updated: [String] = [])
        -> [String]
    {
        var lines = ["→ enumerateChanges(startingAt: (\"\(marker)\", \(start)))"]
        if !updated.isEmpty {
            lines.append(
                "  didUpdate(\(updated.count) \(updated.count == 1 ? "item" : "items"): "
                    + updated.map { "\($0) \"Ada Lovelace\"" }.joined(separator: ", ") + ")")
        }
        lines.append("  didFinishEnumeratingChanges(upTo: (\"\(marker)\", \(end)), moreComing: \(moreComing))")
        lines.append("← returned")
        return lines
    }

    @Test("versions as text: a moreComing batch stuck where the offsets pass 10, after batches that advanced")
    func versionsStuckAtAPowerOfTen() throws {
        let transcript =
            Self.batch("cps1:g:10", from: 3, to: 6, moreComing: true, updated: ["a", "b", "c"])
            + Self.batch("cps1:g:10", from: 6, to: 9, moreComing: true, updated: ["d", "e", "f"])
            + Self.batch("cps1:g:10", from: 9, to: 9, moreComing: true, updated: ["g", "h", "i"])
        let words = try #require(LikelyMistake.versionsComparedAsText(in: transcript, batchSize: 3))
        #expect(words.hasPrefix("anchor versions compare as text: "), "\(words)")
        #expect(words.contains("\"10\" sorts before \"9\""), "\(words)")
    }

    @Test("versions as text: an anchor that went back from 100 to 9 (offset −91)")
    func versionsWentBack() throws {
        let transcript = Self.batch("v100", from: 0, to: -91, moreComing: false, updated: ["a"])
        let words = try #require(LikelyMistake.versionsComparedAsText(in: transcript, batchSize: 3))
        #expect(words.contains("\"9\" sorts after \"100\""), "\(words)")
    }

    @Test("versions as text: a batch before the last went back (D10's sync before, then the signal after it)")
    func versionsWentBackBeforeTheLastBatch() throws {
        let transcript =
            Self.batch("v100", from: 0, to: -91, moreComing: false, updated: ["a"])
            + Self.batch("v100", from: -91, to: -90, moreComing: false, updated: ["b"])
        let words = try #require(LikelyMistake.versionsComparedAsText(in: transcript, batchSize: 3))
        #expect(words.contains("from version 100"), "\(words)")
    }

    @Test(
        "not versions as text: a stuck anchor from its first batch, a final batch that kept its anchor, no power of ten"
    )
    func notVersionsAsText() {
        // A provider stuck from the start (bad-provider's stuck-more-coming): offset 0, no batch advanced.
        #expect(
            LikelyMistake.versionsComparedAsText(
                in: Self.batch("cps1:g:98", from: 0, to: 0, moreComing: true, updated: ["a"]), batchSize: 3) == nil)
        // A stale final anchor (stale-final-anchor): moreComing false, the anchor it started from.
        #expect(
            LikelyMistake.versionsComparedAsText(
                in: Self.batch("cps1:g:10", from: 6, to: 9, moreComing: true, updated: ["a", "b", "c"])
                    + Self.batch("cps1:g:10", from: 9, to: 9, moreComing: false, updated: ["d"]), batchSize: 3) == nil)
        // Stuck, but no power of ten within the batch's reach.
        #expect(
            LikelyMistake.versionsComparedAsText(
                in: Self.batch("cps1:g:10", from: 3, to: 4, moreComing: true, updated: ["a"])
                    + Self.batch("cps1:g:10", from: 4, to: 4, moreComing: true, updated: ["b"]), batchSize: 3) == nil)
        // An anchor that advanced across a power of ten is right.
        #expect(
            LikelyMistake.versionsComparedAsText(
                in: Self.batch("cps1:g:10", from: 9, to: 12, moreComing: true, updated: ["a", "b", "c"]), batchSize: 3)
                == nil)
    }

    @Test("moreComing ended early: the next signal brings, from the advanced anchor, what the batch had not sent")
    func moreComingEndedEarly() throws {
        let before =
            Self.batch("m", from: 0, to: 3, moreComing: true, updated: ["a", "b", "c"])
            + Self.batch("m", from: 3, to: 6, moreComing: false, updated: ["d", "e", "f"])
        let after = Self.batch("m", from: 6, to: 7, moreComing: false, updated: ["g"])
        let words = try #require(
            LikelyMistake.moreComingEndedEarly(before: before, after: after, updated: 1, deleted: 0))
        #expect(words.hasPrefix("moreComing was false with one change still to come (off by one)"))
        // The same changes sent again from an anchor that moved too little: not moreComing's fault.
        let again = Self.batch("m", from: 6, to: 7, moreComing: false, updated: ["f"])
        #expect(LikelyMistake.moreComingEndedEarly(before: before, after: again, updated: 1, deleted: 0) == nil)
        // A stale final anchor (the batch handed back the anchor it started from): the anchor's fault.
        let stale =
            Self.batch("m", from: 0, to: 3, moreComing: true, updated: ["a", "b", "c"])
            + Self.batch("m", from: 3, to: 3, moreComing: false, updated: ["d"])
        let fromStale = Self.batch("m", from: 3, to: 4, moreComing: false, updated: ["d"])
        #expect(LikelyMistake.moreComingEndedEarly(before: stale, after: fromStale, updated: 1, deleted: 0) == nil)
    }

    @Test("pruned deletions: only deletions missing and the anchor answered; a lost addition or an expiry is not it")
    func prunedDeletions() {
        #expect(
            LikelyMistake.prunedDeletions(stillThere: ["a"], missing: 0, outdated: 0, expired: false)?.hasPrefix(
                "deletions were pruned from the change log while an anchor still needed them") == true)
        // A trimmed log that lost the addition too (trimmed-log-without-expiry): today's message.
        #expect(LikelyMistake.prunedDeletions(stillThere: ["a"], missing: 1, outdated: 0, expired: false) == nil)
        #expect(LikelyMistake.prunedDeletions(stillThere: ["a"], missing: 0, outdated: 1, expired: false) == nil)
        #expect(LikelyMistake.prunedDeletions(stillThere: ["a"], missing: 0, outdated: 0, expired: true) == nil)
    }

    @Test("a page's next offset one short: the page before ended one item early and this one began with its last item")
    func pageOffsetOneShort() {
        let marker = Data("m".utf8)
        var earlier = ProbeResult()
        earlier.items = ["a", "b", "c", "d"].map { ContactRecord(identifier: $0) }
        earlier.end = .page(SyncPosition(generationMarker: marker, offset: 3))
        let words = LikelyMistake.pageOffsetOneShort(
            identifier: "d", earlier: 0, earlierPosition: .initial, earlierResult: earlier, later: 1)
        #expect(words?.hasPrefix("the page said its next page starts one item early (off by one)") == true)
        // An item repeated from a page further back, or one that was not the page's last: not this.
        #expect(
            LikelyMistake.pageOffsetOneShort(
                identifier: "d", earlier: 0, earlierPosition: .initial, earlierResult: earlier, later: 2) == nil)
        #expect(
            LikelyMistake.pageOffsetOneShort(
                identifier: "b", earlier: 0, earlierPosition: .initial, earlierResult: earlier, later: 1) == nil)
        earlier.end = .page(SyncPosition(generationMarker: marker, offset: 4))
        #expect(
            LikelyMistake.pageOffsetOneShort(
                identifier: "d", earlier: 0, earlierPosition: .initial, earlierResult: earlier, later: 1) == nil)
    }

    @Test("the mistake comes first, then what the kit saw; no mistake leaves the symptom as it was")
    func explained() {
        #expect(LikelyMistake.explained("lost", by: nil) == "lost")
        #expect(LikelyMistake.explained("lost", by: "the mistake") == "the mistake. What the kit saw: lost")
        #expect(
            LikelyMistake.explained("the mistake. What the kit saw: lost", by: "another")
                == "the mistake. What the kit saw: lost")
    }

    @Test("positions read back from the trace: quoted markers and the initial page; base64 is not read")
    func printedPositions() {
        let position = SyncPosition(generationMarker: Data("cps1:g:10".utf8), offset: 9)
        #expect(SyncPosition(printed: position.description) == position)
        #expect(SyncPosition(printed: SyncPosition.initial.description) == .initial)
        #expect(SyncPosition(printed: "(AAEC, 3)") == nil)
    }
}
