import ContactProviderSystem
import Foundation
import Testing

/// Issue 29, item 2: the rules of one round of doorbells, without FIFOs. The serve loop carries a
/// round out (over the real pipes, `SyncEndToEndTests` and the lifecycle tests); here each rule of
/// what a batch asks for is checked on its own.
@Suite("Runtime: what one batch of doorbells asks of the provider (DoorbellRound)")
struct DoorbellRoundTests {
    /// Reply FIFOs: `gone` has no reader, every other id gets a descriptor numbered by its order.
    static func round(_ batch: [Doorbell], gone: Set<String> = []) -> DoorbellRound {
        var next: Int32 = 100
        return DoorbellRound(batch) { id in
            guard !gone.contains(id) else { return nil }
            next += 1
            return next
        }
    }

    @Test("signals, waited for or not, are one sync; only waiting hosts and traced signals are answered")
    func signalsAreOneSync() {
        let round = Self.round([
            Doorbell(kind: .signal),
            Doorbell(kind: .signal, id: "a", reply: true),
            Doorbell(kind: .signal, id: "b", trace: true),
            Doorbell(kind: .signal, id: "c", reply: true, trace: true),
        ])
        #expect(round.runsSync)
        #expect(
            round.syncWaiters == [
                Waiter(id: "a", fd: 101, trace: false), Waiter(id: "b", fd: nil, trace: true),
                Waiter(id: "c", fd: 102, trace: true),
            ])
        #expect(!round.endsProvider)
        #expect(round.stepWaiters.isEmpty && round.probes.isEmpty && round.exitWaiters.isEmpty)
    }

    @Test("no signal, no sync: steps and probes alone do not start one")
    func stepsAndProbesAlone() {
        let request = ProbeRequest(kind: .content, position: .initial, size: 4)
        let round = Self.round([
            Doorbell(kind: .step, id: "s", reply: true), Doorbell(kind: .step),
            Doorbell(kind: .probe, id: "p", reply: true, probe: request),
        ])
        #expect(!round.runsSync)
        #expect(round.stepWaiters == [Waiter(id: "s", fd: 101, trace: false)])
        #expect(round.probes == [DoorbellRound.Probe(waiter: Waiter(id: "p", fd: 102, trace: false), request: request)])
    }

    @Test("a probe whose reply FIFO nobody reads, or that carries no request, is dropped (issue 31, item 12)")
    func unreadProbesAreDropped() {
        let request = ProbeRequest(kind: .changes, position: .initial, size: 3)
        let round = Self.round(
            [
                Doorbell(kind: .probe, id: "gone", reply: true, probe: request),
                Doorbell(kind: .probe, id: "empty", reply: true),
                Doorbell(kind: .probe, id: "nowait", probe: request),
            ], gone: ["gone"])
        #expect(round.probes.isEmpty)
    }

    @Test("invalidate and shutdown end the provider after the round, and their hosts are answered then")
    func invalidateEndsTheProvider() {
        let round = Self.round([
            Doorbell(kind: .signal), Doorbell(kind: .invalidate, id: "i", reply: true), Doorbell(kind: .shutdown),
        ])
        #expect(round.endsProvider)
        #expect(round.runsSync, "the signal before the invalidation still syncs; the sync stops after its commit")
        #expect(round.exitWaiters == [Waiter(id: "i", fd: 101, trace: false)])
    }

    @Test(
        "after an invalidation ended a sync, signalling and stepping hosts get its report and no sync runs (R10, R43)")
    func endedSyncAnswersLateHosts() {
        var round = Self.round([
            Doorbell(kind: .signal, id: "a", reply: true), Doorbell(kind: .step, id: "s", reply: true),
            Doorbell(kind: .invalidate, id: "i", reply: true),
        ])
        let answered = round.takeWaitersOfEndedSync()
        #expect(answered.map(\.id) == ["a", "s"])
        #expect(!round.runsSync && round.syncWaiters.isEmpty && round.stepWaiters.isEmpty)
        #expect(round.exitWaiters.map(\.id) == ["i"], "the invalidating host is still answered when the provider ends")
    }
}
