import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// D1, D2, D4–D7: a real sync of changes (D2: what the system receives), then, on fresh data, the
    /// batches from the committed anchor, each probed twice (D1, D4, D6, D7).
    func changeRules() async throws {
        try freshData(count: 10)
        guard let anchor0 = try await completeContent(rules: [.d1, .d2, .d4, .d5, .d6, .d7]) else { return }
        let batchSize = options.batchSize

        checking(.d5)
        let idle = try await subject.probe(ProbeRequest(kind: .changes, position: anchor0, size: batchSize))
        checkTerminal(idle, step: "changes from \(anchor0) with nothing changed")
        if case .batch(_, let moreComing) = idle.end, !idle.items.isEmpty || !idle.deleted.isEmpty || moreComing {
            record(
                .d5,
                Finding(
                    explanation:
                        "with nothing changed the provider reported \(idle.items.count) updates, \(idle.deleted.count) deletions, moreComing \(moreComing)",
                    step: "changes from \(anchor0) with nothing changed", transcript: idle.transcript))
        }

        checking(.d2)
        try mutate(updates: 4, deletes: 3, adds: 3)
        // D2 is judged on what the system receives, in a real sync with no enumeration of the kit's own
        // before it: a provider may consume its change log as it hands changes over, and the kit's probes
        // must not be what the system then misses (issue 30, item 1).
        try await systemConverges(rule: .d2)
        // Then edits of formatting alone (case, spacing, a phone's punctuation), synced on their own:
        // change detection that compares values loosely never sends them (issue 43, class 3).
        if !failed(.d2), !(try makeFormattingEdits()).isEmpty {
            try await systemConverges(rule: .d2, step: "sync of edits that change only formatting")
        }

        // D1, D4, D6, D7 on fresh data: each batch handed over once, then asked for again from the same
        // anchor, as a system that crashed before committing it asks (R37).
        checking(.d1)
        try freshData(count: 10)
        guard let start = try await completeContent(rules: [.d1, .d4, .d6, .d7]) else { return }
        try mutate(updates: 4, deletes: 3, adds: 3)
        var anchor = start
        var transcript: [String] = []
        for index in 0..<50 {
            let step = "change batch \(index + 1), enumerateChanges(startingAt: \(anchor))"
            let result = try await subject.probe(ProbeRequest(kind: .changes, position: anchor, size: batchSize))
            transcript += result.transcript
            guard checkTerminal(result, step: step) else { return }
            if result.items.count + result.deleted.count > batchSize {
                record(
                    .d7,
                    Finding(
                        explanation:
                            "a batch carried \(result.items.count + result.deleted.count) \(result.items.count + result.deleted.count == 1 ? "change" : "changes"); suggestedBatchSize is \(batchSize)",
                        step: step, transcript: result.transcript))
            }
            let replay = try await subject.probe(ProbeRequest(kind: .changes, position: anchor, size: batchSize))
            if !Self.sameBatch(replay, result) {
                record(
                    .d6,
                    Finding(
                        explanation: "the same anchor gave a different batch the second time", step: step,
                        transcript: result.transcript + replay.transcript))
            }
            switch result.end {
            case .error(let code, let message):
                record(
                    .d2,
                    Finding(
                        explanation: "the provider answered a live anchor with an error: \(code ?? message)",
                        step: step, transcript: transcript))
                return
            case .batch(let next, let moreComing):
                // The batches so far, read for versions compared as text (issue 43, item 8): an anchor
                // that stayed where an earlier one advanced, or that went back, shows it in its bytes.
                let asText = LikelyMistake.versionsComparedAsText(in: transcript, batchSize: batchSize)
                if moreComing, next == anchor {
                    record(
                        .d4,
                        Finding(
                            explanation: LikelyMistake.explained(
                                "moreComing is true but the anchor did not advance from \(anchor): the system would ask for the same batch forever",
                                by: asText),
                            step: step, transcript: result.transcript))
                    return
                }
                if next != anchor, let asText {
                    record(
                        .d4,
                        Finding(
                            explanation: LikelyMistake.explained(
                                "the anchor went back from \(anchor) to \(next)", by: asText),
                            step: step, transcript: result.transcript))
                    return
                }
                anchor = next
                // Whether the batches add up is D2's, judged on the real sync above: here each replay
                // may consume what a destructive provider would hand over next.
                if !moreComing { return }
            default:
                return
            }
        }
        record(
            .d4,
            Finding(
                explanation: "50 batches were not enough for 10 changes", step: "change batch 50",
                transcript: Array(transcript.suffix(20))))
    }

    /// Whether two enumerations of one anchor gave the same batch: the same updates (in any order: the
    /// system applies a batch as a whole), the same deletions and the same end.
    static func sameBatch(_ one: ProbeResult, _ other: ProbeResult) -> Bool {
        let byIdentifier = { (result: ProbeResult) in result.items.sorted { $0.identifier < $1.identifier } }
        return byIdentifier(one) == byIdentifier(other) && one.deleted.sorted() == other.deleted.sorted()
            && one.end == other.end
    }

    /// Checks one batch's terminal call (D1); false when there is none.
    @discardableResult
    func checkTerminal(_ result: ProbeResult, step: String) -> Bool {
        if let violation = result.violations.first {
            record(.d1, Finding(explanation: violation.message, step: step, transcript: result.transcript))
        }
        if result.timedOut {
            record(
                .d1,
                Finding(
                    explanation: "enumerateChanges did not return within \(options.timeoutSeconds) s", step: step,
                    transcript: result.transcript))
            return false
        }
        if result.end == nil {
            record(
                .d1,
                Finding(
                    explanation: "enumerateChanges returned without didFinishEnumeratingChanges or …WithError (R30)",
                    step: step,
                    transcript: result.transcript))
            return false
        }
        return true
    }

    /// D3: edits between two content pages must arrive with the first change enumeration.
    func changesDuringContent() async throws {
        try freshData(count: 12)
        let (first, firstTranscript) = try await systemSync(maxSteps: 1)
        if let error = first.error {
            record(
                .d3,
                Finding(
                    explanation: "the first content page failed: \(error.message)", step: "content page 1",
                    transcript: firstTranscript))
            return
        }
        let data = Dictionary(try backend.contacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        let delivered = try subject.systemContacts().compactMap { data[$0.identifier] }
        // Edit contacts that were already delivered, delete one, add one: all while content is mid-way.
        for record in delivered.prefix(2) { try backend.update(edited(record)) }
        if let victim = delivered.dropFirst(2).last { try backend.delete(identifier: victim.identifier) }
        try backend.add(makeContact())
        // Renames (item 12): a delivered contact now sorts last by name, one not yet delivered first,
        // so a provider that pages by name or position meets a list that moved under it.
        let deliveredIDs = Set(delivered.map(\.identifier))
        if var last = delivered.dropFirst(2).first {
            last.givenName = "Zyta"
            last.familyName = "Zzyzx"
            try backend.update(last)
        }
        if var first = data.values.sorted(by: { $0.identifier < $1.identifier }).first(where: {
            !deliveredIDs.contains($0.identifier)
        }) {
            first.givenName = "Aaron"
            first.familyName = "Aardvark"
            try backend.update(first)
        }
        try await systemConverges(
            rule: .d3,
            step:
                "content enumeration finished after edits, a deletion, an addition and renames made between its pages, then a change enumeration"
        )
    }

    /// E1: after the data forgets its generation, the old anchor must expire (or yield the full truth).
    func expiryRule() async throws {
        try freshData(count: 6)
        guard let anchor = try await completeContent(rules: [.e1]) else { return }
        try backend.reset()
        for _ in 0..<3 { try backend.add(makeContact()) }
        if options.resetCallsManagerReset {
            // As the app does: the system forgets the domain with the data, so no anchor from before
            // the reset is ever asked for; the next sync must bring the system to the new data.
            try subject.resetSystem()
            return try await systemConverges(
                rule: .e1, step: "sync after the app reset its store and called ContactProviderManager.reset()")
        }
        var system = Dictionary(
            try subject.systemContacts().map { ($0.identifier, $0) }, uniquingKeysWith: { _, last in last })
        var position = anchor
        var transcript: [String] = []
        for index in 0..<40 {
            let step = "after a reset of the data, enumerateChanges(startingAt: \(position)) (batch \(index + 1))"
            let result = try await subject.probe(ProbeRequest(kind: .changes, position: position, size: 100))
            transcript += result.transcript
            switch result.end {
            case .error(let code, _) where code == "changeAnchorExpired" || code == "pageExpired":
                return try await systemConverges(rule: .e1, step: "full re-enumeration after the expiry")
            case .batch(let next, let moreComing):
                for item in result.items { system[item.identifier] = item }
                for identifier in result.deleted { system[identifier] = nil }
                if !moreComing {
                    if let difference = difference(system: Array(system.values), data: try backend.contacts()) {
                        record(
                            .e1,
                            Finding(
                                explanation:
                                    "the anchor's generation was forgotten but the provider answered with changes instead of changeAnchorExpired, leaving: \(difference)",
                                step: step, transcript: transcript))
                    }
                    return
                }
                if next == position { return }
                position = next
            default:
                record(
                    .e1,
                    Finding(
                        explanation: "the provider gave no valid answer to a forgotten anchor", step: step,
                        transcript: transcript))
                return
            }
        }
    }

    /// L1–L3.
    func lifecycleRules() async throws {
        checking(.l1)
        try freshData(count: 5)
        try await subject.restart()
        let first = try await subject.probe(ProbeRequest(kind: .content, position: .initial, size: options.pageSize))
        if first.end == nil || first.timedOut {
            record(
                .l1,
                Finding(
                    explanation: "a freshly started extension did not answer its first enumerateContent",
                    step: "first request after launch", transcript: first.transcript))
        }
        checking(.l2)
        let (seconds, error) = try await subject.invalidate()
        if let error {
            record(.l2, Finding(explanation: error, step: "invalidate()"))
        } else if seconds > options.timeoutSeconds {
            record(
                .l2,
                Finding(
                    explanation: String(
                        format: "invalidate() took %.1f s; the limit is %.1f s", seconds, options.timeoutSeconds),
                    step: "invalidate()"))
        }

        checking(.l3)
        try freshData(count: 5)
        guard try await completeContent(rules: [.l3]) != nil else { return }
        try mutate(updates: 2, deletes: 1, adds: 1)
        try await subject.restart()
        let (report, transcript) = try await syncUntilCaughtUp()
        if report.restarted {
            record(
                .l3,
                Finding(
                    explanation:
                        "after a restart the provider expired the committed anchor, forcing a full re-enumeration",
                    step: "sync after restart", transcript: transcript))
        } else if let error = report.error {
            record(
                .l3,
                Finding(
                    explanation: "the sync after a restart failed: \(error.message)", step: "sync after restart",
                    transcript: transcript))
        } else if let difference = difference(system: try subject.systemContacts(), data: try backend.contacts()) {
            record(
                .l3,
                Finding(
                    explanation: "after a restart: \(difference)", step: "sync after restart", transcript: transcript))
        }
    }
}
