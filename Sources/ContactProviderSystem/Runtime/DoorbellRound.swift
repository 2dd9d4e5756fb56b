/// A host waiting for an answer on its reply FIFO.
package struct Waiter: Equatable, Sendable {
    /// The doorbell's id, which names the reply FIFO.
    package var id: String
    /// The reply FIFO, opened when the doorbell was read (nil: nobody reads it, or it is gone).
    package var fd: Int32?
    /// Whether the host asked for the sync's trace.
    package var trace: Bool

    /// A waiter for the doorbell `id`.
    package init(id: String, fd: Int32?, trace: Bool) {
        self.id = id
        self.fd = fd
        self.trace = trace
    }
}

/// What one batch of doorbells asks of the provider, decided before any of it runs: the rules of a
/// round, kept apart from the pipes and the enumerator so they are unit-tested without FIFOs
/// (`DoorbellRoundTests`; issue 29, item 2). The provider's serve loop carries a round out in
/// order: the sync, then the steps, then compaction, then the probes.
package struct DoorbellRound: Sendable {
    /// An enumerator call whose result nobody commits (the conformance kit's probes).
    package struct Probe: Equatable, Sendable {
        package var waiter: Waiter
        package var request: ProbeRequest

        /// `request` for the host `waiter`.
        package init(waiter: Waiter, request: ProbeRequest) {
            self.waiter = waiter
            self.request = request
        }
    }

    /// A sync runs: a host signalled, waiting for it or not (many signals are one sync).
    package private(set) var runsSync = false
    /// The hosts that wait for that sync's report, and a traced signal nobody waits for (its trace
    /// is still written, for `contacts-host log`).
    package private(set) var syncWaiters: [Waiter] = []
    /// Hosts that each wait for one page or batch (`step`), after the sync.
    package private(set) var stepWaiters: [Waiter] = []
    /// Enumerator calls with nothing committed, after the steps and compaction.
    package private(set) var probes: [Probe] = []
    /// Hosts that asked the provider to end (`invalidate`, `shutdown`): answered once it has.
    package private(set) var exitWaiters: [Waiter] = []
    /// The provider ends after this round (R10, R17).
    package private(set) var endsProvider = false

    /// The round of `batch`; `openReply` opens a waiting host's reply FIFO (nil: nobody reads it),
    /// right away, so that host sees a hang-up if this process dies before it answers.
    package init(_ batch: [Doorbell], openReply: (String) -> Int32?) {
        for message in batch {
            let waiter =
                message.reply == true
                ? message.id.map { Waiter(id: $0, fd: openReply($0), trace: message.trace == true) } : nil
            switch message.kind {
            case .signal:
                runsSync = true
                if let waiter {
                    syncWaiters.append(waiter)
                } else if message.trace == true, let id = message.id {
                    syncWaiters.append(Waiter(id: id, fd: nil, trace: true))
                }
            case .step:
                if let waiter { stepWaiters.append(waiter) }
            case .probe:
                // Nobody reads the reply FIFO: the result file would never be collected (issue 31 item 12).
                if let waiter, waiter.fd != nil, let request = message.probe {
                    probes.append(Probe(waiter: waiter, request: request))
                }
            case .invalidate, .shutdown:
                endsProvider = true
                if let waiter { exitWaiters.append(waiter) }
            }
        }
    }

    /// After an invalidation ended a sync, the process is on its way out: hosts that signal or step
    /// meanwhile get that sync's report, and no new sync runs (R10, R43). Returns those hosts.
    package mutating func takeWaitersOfEndedSync() -> [Waiter] {
        defer {
            syncWaiters = []
            stepWaiters = []
            runsSync = false
        }
        return syncWaiters + stepWaiters
    }
}
