import AppGroupStore
import ContactProviderTesting
import Foundation
import TestSupport
import Testing

@testable import ContactProviderSystem

@Suite("Provider compaction: backs off after abandoned attempts, keeps the engine state after a finished one")
struct CompactionBackoffTests {
    @Test("Each abandoned attempt doubles the pause up to the longest; a finished compaction brings it back")
    func backoff() {
        var backoff = CompactionBackoff(shortest: 0.05, longest: 1.6)
        #expect(backoff.pause == 0.05)
        var pauses: [Double] = []
        for _ in 0..<8 {
            backoff.record(finished: false)
            pauses.append(backoff.pause)
        }
        #expect(pauses == [0.1, 0.2, 0.4, 0.8, 1.6, 1.6, 1.6, 1.6])
        backoff.record(finished: true)
        #expect(backoff.pause == 0.05)
        // A longest shorter than the shortest is the shortest: the pause never shrinks below it.
        var flat = CompactionBackoff(shortest: 0.05, longest: 0.01)
        flat.record(finished: false)
        #expect(flat.pause == 0.05)
    }

    @Test("After the engine's own compaction the next sync reads no snapshot line: its state was moved, not loaded")
    func engineKeepsItsStateAcrossItsCompaction() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            // Enough contacts for the journal to pass the 256 KiB a compaction waits for.
            let all = records(1...6000)
            let full = await engine.sync(driver: ScriptedDriver(content: pagingContent(all)))
            #expect(full.error == nil && full.systemCount == 6000)
            #expect(engine.isCompactionDue)
            let loads = engine.store.fullLoads
            #expect(engine.compactIfNeeded())
            #expect(!engine.isCompactionDue)
            let next = SyncPosition(generationMarker: marker, offset: 6000)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { _, observer in
                    observer.didUpdate(records(6001...6001))
                    observer.didDelete(["c1"])
                    observer.didFinishBatch(upTo: next, moreComing: false)
                })
            let change = await engine.sync(driver: driver)
            #expect(change.error == nil && change.enumeration == "changes" && change.systemCount == 6000)
            #expect(engine.store.fullLoads == loads, "the state was loaded again after the compaction")
            let stored = try systemContacts(group)
            #expect(stored.count == 6000 && stored["c6001"] != nil && stored["c1"] == nil)
        }
    }
}
