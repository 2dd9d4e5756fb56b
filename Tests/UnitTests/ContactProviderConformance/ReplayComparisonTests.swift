import AppGroupStore
import ContactProviderSystem
import Foundation
import Testing

@testable import ContactProviderConformance

/// Issue 30, item 2: what "the same page" and "the same batch" mean when the kit asks twice (C5, D6).
/// The system commits a page or a batch as a whole, so the order of its items is not part of it; and a
/// repeat of the initial page after a finished content enumeration starts a new enumeration, which may
/// carry a new generation marker (R23 fixes the marker within one enumeration only).
@Suite("Conformance: C5 and D6 compare what the system would commit")
struct ReplayComparisonTests {
    private func result(_ identifiers: [String], end: ProbeResult.End?, deleted: [String] = []) -> ProbeResult {
        var result = ProbeResult()
        result.items = identifiers.map { ContactRecord(identifier: $0) }
        result.deleted = deleted
        result.end = end
        return result
    }

    private let marker = Data("generation-1".utf8)
    private let other = Data("generation-2".utf8)

    @Test("the same items in another order are the same page; other items, or a missing one, are not")
    func pageOrder() {
        let first = result(["a", "b", "c"], end: .content(marker))
        #expect(
            ConformanceChecker.samePage(result(["c", "a", "b"], end: .content(marker)), first, fromInitialPage: false))
        #expect(!ConformanceChecker.samePage(result(["a", "b"], end: .content(marker)), first, fromInitialPage: false))
        #expect(
            !ConformanceChecker.samePage(result(["a", "b", "d"], end: .content(marker)), first, fromInitialPage: false))
    }

    @Test("from the initial page a new marker is a new enumeration; resuming a later page must keep it")
    func markerOfANewEnumeration() {
        let first = result(["a"], end: .content(marker))
        #expect(ConformanceChecker.samePage(result(["a"], end: .content(other)), first, fromInitialPage: true))
        #expect(!ConformanceChecker.samePage(result(["a"], end: .content(other)), first, fromInitialPage: false))
        let paged = result(["a"], end: .page(SyncPosition(generationMarker: marker, offset: 1)))
        #expect(
            ConformanceChecker.samePage(
                result(["a"], end: .page(SyncPosition(generationMarker: other, offset: 1))), paged,
                fromInitialPage: true))
        #expect(
            !ConformanceChecker.samePage(
                result(["a"], end: .page(SyncPosition(generationMarker: other, offset: 2))), paged,
                fromInitialPage: true))
        #expect(
            !ConformanceChecker.samePage(
                result(["a"], end: .error(code: "pageExpired", message: "")), paged, fromInitialPage: true))
    }

    @Test("a batch: updates and deletions in any order, the same anchor; nothing left is not the same batch")
    func batches() {
        let end = ProbeResult.End.batch(SyncPosition(generationMarker: marker, offset: 3), moreComing: false)
        let first = result(["a", "b"], end: end, deleted: ["x", "y"])
        #expect(ChangeBatchesScenario.sameBatch(result(["b", "a"], end: end, deleted: ["y", "x"]), first))
        #expect(!ChangeBatchesScenario.sameBatch(result([], end: end), first))
        let later = ProbeResult.End.batch(SyncPosition(generationMarker: marker, offset: 4), moreComing: false)
        #expect(!ChangeBatchesScenario.sameBatch(result(["a", "b"], end: later, deleted: ["x", "y"]), first))
    }
}
