import AppGroupStore
import ContactProviderSystem
import Foundation

/// D5, D2, D1, D4, D6, D7: change enumerations.
///
/// After a content sync: with nothing changed, the changes from the committed anchor are none and
/// end without `moreComing` (D5). Then the app edits, deletes and adds, and a real sync through the
/// system must bring it exactly to the data (D2), and again after edits that change only formatting
/// (issue 43, class 3). Then, on fresh data with the same kind of edits, the kit asks for each batch
/// itself, twice from the same anchor, as a system that crashed before committing it asks (R37):
/// each batch ends with a terminal call (D1), its anchor advances while `moreComing` is true and
/// never goes back (D4), the same anchor gives the same batch (D6), and a batch holds at most
/// `suggestedBatchSize` changes (D7). ``TimeZoneChangeScenario`` checks D2 again across time zones.
struct ChangeBatchesScenario {
    /// Contacts of each part of the scenario.
    static let contacts = 10
    /// Batches after which a change enumeration that has not ended fails D4.
    static let batchLimit = 50

    let checker: ConformanceChecker

    func run() async throws {
        try checker.freshData(count: Self.contacts)
        guard let anchor0 = try await checker.completeContent(rules: [.d1, .d2, .d4, .d5, .d6, .d7]) else { return }
        let batchSize = checker.options.batchSize

        checker.checking(.d5)
        let idle = try await checker.subject.probe(ProbeRequest(kind: .changes, position: anchor0, size: batchSize))
        checkTerminal(idle, step: "changes from \(anchor0) with nothing changed")
        if case .batch(_, let moreComing) = idle.end, !idle.items.isEmpty || !idle.deleted.isEmpty || moreComing {
            checker.record(
                .d5,
                Finding(
                    explanation:
                        "with nothing changed the provider reported \(idle.items.count) updates, \(idle.deleted.count) deletions, moreComing \(moreComing)",
                    step: "changes from \(anchor0) with nothing changed", transcript: idle.transcript))
        }

        checker.checking(.d2)
        try checker.mutate(updates: 4, deletes: 3, adds: 3)
        // D2 is judged on what the system receives, in a real sync with no enumeration of the kit's own
        // before it: a provider may consume its change log as it hands changes over, and the kit's probes
        // must not be what the system then misses (issue 30, item 1).
        try await checker.systemConverges(rule: .d2)
        // Then edits of formatting alone (case, spacing, a phone's punctuation), synced on their own:
        // change detection that compares values loosely never sends them (issue 43, class 3).
        if !checker.failed(.d2), !(try makeFormattingEdits()).isEmpty {
            try await checker.systemConverges(rule: .d2, step: "sync of edits that change only formatting")
        }

        // D1, D4, D6, D7 on fresh data: each batch handed over once, then asked for again from the same
        // anchor, as a system that crashed before committing it asks (R37).
        checker.checking(.d1)
        try checker.freshData(count: Self.contacts)
        guard let start = try await checker.completeContent(rules: [.d1, .d4, .d6, .d7]) else { return }
        try checker.mutate(updates: 4, deletes: 3, adds: 3)
        var anchor = start
        var transcript: [String] = []
        for index in 0..<Self.batchLimit {
            let step = "change batch \(index + 1), enumerateChanges(startingAt: \(anchor))"
            let result = try await checker.subject.probe(
                ProbeRequest(kind: .changes, position: anchor, size: batchSize))
            transcript += result.transcript
            guard checkTerminal(result, step: step) else { return }
            if result.items.count + result.deleted.count > batchSize {
                checker.record(
                    .d7,
                    Finding(
                        explanation:
                            "a batch carried \(result.items.count + result.deleted.count) \(result.items.count + result.deleted.count == 1 ? "change" : "changes"); suggestedBatchSize is \(batchSize)",
                        step: step, transcript: result.transcript))
            }
            let replay = try await checker.subject.probe(
                ProbeRequest(kind: .changes, position: anchor, size: batchSize))
            if !Self.sameBatch(replay, result) {
                checker.record(
                    .d6,
                    Finding(
                        explanation: "the same anchor gave a different batch the second time", step: step,
                        transcript: result.transcript + replay.transcript))
            }
            switch result.end {
            case .error(let code, let message):
                checker.record(
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
                    checker.record(
                        .d4,
                        Finding(
                            explanation: LikelyMistake.explained(
                                "moreComing is true but the anchor did not advance from \(anchor): the system would ask for the same batch forever",
                                by: asText),
                            step: step, transcript: result.transcript))
                    return
                }
                if next != anchor, let asText {
                    checker.record(
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
        checker.record(
            .d4,
            Finding(
                explanation: "\(Self.batchLimit) batches were not enough for 10 changes",
                step: "change batch \(Self.batchLimit)",
                transcript: Array(transcript.suffix(20))))
    }

    /// Makes each ``FormattingEdit`` on its own contact (the first by identifier whose value it changes
    /// in the backend's store); returns the contacts changed, with the change in words.
    @discardableResult
    private func makeFormattingEdits() throws -> [(identifier: String, change: String)] {
        let contacts = try checker.backend.contacts().sorted { $0.identifier < $1.identifier }
        var made: [(identifier: String, change: String)] = []
        var used: Set<String> = []
        for edit in FormattingEdit.all {
            // The first contact not edited yet whose value this edit changes in the store (an
            // organisation card has no given name to capitalise).
            for contact in contacts where !used.contains(contact.identifier) {
                var copy = contact
                edit.apply(&copy)
                guard checker.backend.comparable(copy) != checker.backend.comparable(contact) else { continue }
                try checker.backend.update(copy)
                let shape = checker.contactShapes[contact.identifier].map { $0 + "; " } ?? ""
                checker.contactShapes[contact.identifier] = shape + "edited: \(edit.change)"
                used.insert(contact.identifier)
                made.append((contact.identifier, edit.change))
                break
            }
        }
        return made
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
    private func checkTerminal(_ result: ProbeResult, step: String) -> Bool {
        if let violation = result.violations.first {
            checker.record(.d1, Finding(explanation: violation.message, step: step, transcript: result.transcript))
        }
        if result.timedOut {
            checker.record(
                .d1,
                Finding(
                    explanation: "enumerateChanges did not return within \(checker.options.timeoutSeconds) s",
                    step: step,
                    transcript: result.transcript))
            return false
        }
        if result.end == nil {
            checker.record(
                .d1,
                Finding(
                    explanation: "enumerateChanges returned without didFinishEnumeratingChanges or …WithError (R30)",
                    step: step,
                    transcript: result.transcript))
            return false
        }
        return true
    }
}
