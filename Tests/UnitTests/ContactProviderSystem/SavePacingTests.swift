import AppGroupStore
import ContactProviderSystem
import ContactProviderTesting
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 40: after a save iOS sleeps in proportion to the items saved ("didSave() - sleeping %u
/// seconds for %ld items"); here an option, off by default, on the engine's clock (no test sleeps).
@Suite("System engine: pacing after a save, as iOS does, off by default")
struct SavePacingTests {
    @Test("whole seconds per items saved; 0 items or the option off is no pause")
    func seconds() {
        #expect(SavePacing.seconds(forItems: 5, itemsPerSecond: 2) == 2)
        #expect(SavePacing.seconds(forItems: 1, itemsPerSecond: 2) == 0)
        #expect(SavePacing.seconds(forItems: 1000, itemsPerSecond: 0) == 0)
        #expect(SavePacing.seconds(forItems: 0, itemsPerSecond: 1) == 0)
        #expect(DomainConfiguration().paceItemsPerSecond == 0)
    }

    @Test("with the option on, the sync pauses on the engine's clock after the save, saying Apple's line")
    func pausesOnTheClock() async throws {
        try await withTemporaryAppGroup { group in
            let clock = ManualClock()
            let engine = try makeEngine(group, clock: clock) { $0.paceItemsPerSecond = 2 }
            let transcript = Transcript()
            let line = "system: didSave() - sleeping 2 seconds for 5 items"
            let finished = Mutex(false)
            let sync = Task {
                let report = await engine.sync(
                    driver: ScriptedDriver(content: pagingContent(records(1...5))), transcript: transcript)
                finished.withLock { $0 = true }
                return report
            }
            // The page is saved before the pause: wait for the line, then move the clock until the sync
            // ends (in small steps: the pause's sleeper may not be registered yet when the line appears).
            while !transcript.all.contains(line) { await Task.yield() }
            #expect(try systemContacts(group).count == 5)
            while !finished.withLock({ $0 }) {
                clock.advance(by: 0.25)
                await Task.yield()
            }
            let result = await sync.value
            #expect(result.error == nil)
            #expect(result.durationMs >= 2000, "the sync ended only once the clock had moved 2 s")
        }
    }

    @Test("off by default: no pause and no line")
    func offByDefault() async throws {
        try await withTemporaryAppGroup { group in
            let clock = ManualClock()
            let engine = try makeEngine(group, clock: clock)
            let transcript = Transcript()
            let report = await engine.sync(
                driver: ScriptedDriver(content: pagingContent(records(1...5))), transcript: transcript)
            #expect(report.error == nil)
            #expect(report.durationMs == 0)
            #expect(!transcript.all.contains { $0.contains("didSave()") })
        }
    }

    @Test("domain.json's paceItemsPerSecond is read by both readers")
    func configurationReads() throws {
        let data = Data(#"{"format":\#(StoreFormat.version),"enabled":true,"paceItemsPerSecond":7}"#.utf8)
        #expect(DomainConfiguration.fastDecode(data)?.paceItemsPerSecond == 7)
        #expect(try JSONDecoder().decode(DomainConfiguration.self, from: data).paceItemsPerSecond == 7)
    }
}
