import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 40: a page or batch whose save fails is asked for again once, as iOS's framework does
/// (`maxPageRetries`, "will retry enumerating the page"), and then the sync fails with
/// `cannotEnumerate` ("did fail to save"), nothing of it committed.
@Suite("System engine: a page or batch whose save fails is retried once, then cannotEnumerate")
struct SaveRetryTests {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "No space left on device" }
    }

    /// A save fault that fails the next `count` saves.
    private func failing(_ count: Int) -> () throws -> Void {
        let left = Mutex(count)
        return {
            let fail = left.withLock { left in
                defer { left -= 1 }
                return left > 0
            }
            if fail { throw DiskFull() }
        }
    }

    @Test("a page whose save fails once is asked for again, and the sync completes")
    func pageRetried() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            engine.saveFault = failing(1)
            let driver = ScriptedDriver(content: pagingContent(records(1...3)))
            let transcript = Transcript()
            let report = await engine.sync(driver: driver, transcript: transcript)
            #expect(report.error == nil, "\(String(describing: report.error))")
            #expect(driver.calls.withLock { $0 } == ["content (initial, 0)", "content (initial, 0)"])
            #expect(
                transcript.all.contains {
                    $0.contains("ItemContentSession.enumerate() will retry enumerating the page")
                        && $0.contains("No space left on device")
                }, "\(transcript.all)")
            #expect(try systemContacts(group).count == 3)
        }
    }

    @Test("a page whose save fails twice fails the sync with cannotEnumerate; nothing is committed")
    func pageFails() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            engine.saveFault = failing(2)
            let driver = ScriptedDriver(content: pagingContent(records(1...3)))
            let report = await engine.sync(driver: driver)
            #expect(report.error?.code == "cannotEnumerate")
            #expect(report.error?.message.contains("ItemContentSession.enumerate() did fail to save") == true)
            #expect(report.error?.message.contains("after \(SaveRetry.maxPageRetries) retry") == true)
            #expect(driver.calls.withLock { $0 }.count == 1 + SaveRetry.maxPageRetries)
            #expect(try systemContacts(group).isEmpty)
            // The next sync asks for the same page, and it saves.
            engine.saveFault = nil
            let next = await engine.sync(driver: driver)
            #expect(next.error == nil)
            #expect(try systemContacts(group).count == 3)
        }
    }

    @Test("a change batch whose save fails is retried from the same anchor, then fails with cannotEnumerate")
    func anchorRetried() async throws {
        try await withTemporaryAppGroup { group in
            let engine = try makeEngine(group)
            #expect(await engine.sync(driver: ScriptedDriver(content: pagingContent(records(1...2)))).error == nil)
            let next = SyncPosition(generationMarker: marker, offset: 1)
            let anchors = Mutex<[SyncPosition]>([])
            let driver = ScriptedDriver(
                content: pagingContent([]),
                changes: { anchor, observer in
                    anchors.withLock { $0.append(anchor) }
                    observer.didUpdate(records(3...3))
                    observer.didFinishBatch(upTo: next, moreComing: false)
                })
            engine.saveFault = failing(1)
            let transcript = Transcript()
            let retried = await engine.sync(driver: driver, transcript: transcript)
            #expect(retried.error == nil)
            let start = SyncPosition(generationMarker: marker, offset: 0)
            #expect(anchors.withLock { $0 } == [start, start])
            #expect(
                transcript.all.contains {
                    $0.contains("ItemChangeSession.sync() will retry enumerating the sync anchor")
                })
            #expect(try systemContacts(group).count == 3)

            engine.saveFault = failing(2)
            let failed = await engine.sync(driver: driver)
            #expect(failed.error?.code == "cannotEnumerate")
            #expect(failed.error?.message.contains("ItemChangeSession.sync() did fail to save") == true)
        }
    }
}
