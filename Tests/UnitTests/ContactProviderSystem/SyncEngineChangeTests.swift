import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("System engine: change enumeration")
struct SyncEngineChangeTests {
    /// An engine whose content enumeration has completed with c1…c3.
    private func synced(_ group: TemporaryAppGroup, configure: (inout DomainConfiguration) -> Void = { _ in })
        async throws -> SyncEngine
    {
        let engine = try makeEngine(group, configure: configure)
        let report = await engine.sync(driver: ScriptedDriver(content: pagingContent(records(1...3))))
        #expect(report.error == nil)
        return engine
    }

    @Test("didUpdate upserts, didDelete removes, unknown deletions are a no-op; the anchor is committed (R32–R35)")
    func updatesAndDeletes() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            var edited = ContactRecord(identifier: "c1")
            edited.givenName = "Changed"
            let changed = edited
            let next = SyncPosition(generationMarker: marker, offset: 3)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    #expect(anchor == SyncPosition(generationMarker: marker, offset: 0))
                    observer.didUpdate([changed] + records(4...4))
                    observer.didDelete(["c2", "unknown"])
                    observer.didFinishBatch(upTo: next, moreComing: false)
                })
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            #expect(report.enumeration == "changes")
            #expect(report.updated == 2)
            #expect(report.deleted == 1)
            let contacts = try systemContacts(group)
            #expect(contacts.keys.sorted() == ["c1", "c3", "c4"])
            #expect(contacts["c1"]?.givenName == "Changed")
            #expect(report.anchor == next)
        }
    }

    @Test("moreComing loops within one sync, each batch from the previous anchor (R34)")
    func moreComingLoops() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    let index = anchor.offset + 10
                    observer.didUpdate(records(index...index))
                    observer.didFinishBatch(
                        upTo: SyncPosition(generationMarker: marker, offset: anchor.offset + 1),
                        moreComing: anchor.offset < 2)
                })
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            #expect(report.batches == 3)
            #expect(try systemContacts(group).keys.contains("c12"))
            #expect(report.anchor?.offset == 3)
        }
    }

    @Test("moreComing with an unchanged anchor is rule R40 and does not loop")
    func moreComingWithoutProgress() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    observer.didFinishBatch(upTo: anchor, moreComing: true)
                })
            let report = await engine.sync(driver: driver)
            #expect(report.error?.rule == "R40")
            #expect(driver.calls.withLock { $0.count } == 1)
        }
    }

    @Test("changeAnchorExpired drops the store and runs a full content enumeration (R38)")
    func anchorExpired() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            let driver = ScriptedDriver(
                content: pagingContent(records(7...8)),
                changes: { _, observer in
                    observer.didFinishWithError(code: .changeAnchorExpired, description: "gone")
                })
            let report = await engine.sync(driver: driver)
            #expect(report.error == nil)
            #expect(report.restarted)
            #expect(try systemContacts(group).keys.sorted() == ["c7", "c8"])
        }
    }

    @Test("a failed batch commits nothing; the next sync retries from the last committed anchor (R39)")
    func retriesFromCommittedAnchor() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            let anchors = Mutex<[SyncPosition]>([])
            let fail = Mutex(true)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    anchors.withLock { $0.append(anchor) }
                    observer.didDelete(["c1"])
                    if fail.withLock({ $0 }) {
                        observer.didFinishWithError(code: nil, description: "network down")
                    } else {
                        observer.didFinishBatch(
                            upTo: SyncPosition(generationMarker: marker, offset: 1), moreComing: false)
                    }
                })
            let first = await engine.sync(driver: driver)
            #expect(first.error != nil)
            #expect(try systemContacts(group)["c1"] != nil)
            fail.withLock { $0 = false }
            let second = await engine.sync(driver: driver)
            #expect(second.error == nil)
            #expect(try systemContacts(group)["c1"] == nil)
            #expect(
                anchors.withLock { $0 } == Array(repeating: SyncPosition(generationMarker: marker, offset: 0), count: 2)
            )
        }
    }

    @Test("a batch above suggestedBatchSize is a warning (R31); returning without a terminal call is R30")
    func batchRules() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group) { $0.batchSize = 1 }
            let big = ScriptedDriver(
                content: pagingContent([]),
                changes: { _, observer in
                    observer.didUpdate(records(20...22))
                    observer.didFinishBatch(upTo: SyncPosition(generationMarker: marker, offset: 3), moreComing: false)
                })
            let warned = await engine.sync(driver: big)
            #expect(warned.error == nil)
            #expect(warned.warnings.contains { $0.hasPrefix("R31") })
            let silent = ScriptedDriver(
                content: pagingContent([]), changes: { _, observer in observer.didUpdate(records(30...30)) })
            let failed = await engine.sync(driver: silent)
            #expect(failed.error?.rule == "R30")
            #expect(try systemContacts(group)["c30"] == nil)
        }
    }

    @Test("observer calls after the method returned are ignored and reported with the next sync (R20)")
    func lateCalls() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try await synced(group)
            let saved = Mutex<ChangeObserverCore?>(nil)
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    saved.withLock { $0 = observer }
                    observer.didFinishBatch(upTo: anchor, moreComing: false)
                })
            #expect(await engine.sync(driver: driver).error == nil)
            saved.withLock { $0 }?.didDelete(["c1"])
            #expect(try systemContacts(group)["c1"] != nil)
            let next = await engine.sync(driver: driver)
            #expect(next.warnings.contains { $0.contains("R20") && $0.contains("didDelete") })
        }
    }
}
