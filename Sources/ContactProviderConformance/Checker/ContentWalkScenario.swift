import AppGroupStore
import ContactProviderSystem
import Foundation

/// C1–C6: a content enumeration walked page by page.
///
/// The kit asks for each content page itself (probes, not the system's sync), so it sees every call:
/// each page must end with a terminal call (C1), keep one non-empty generation marker (C2), deliver
/// no identifier twice (C3), hold at most `suggestedPageSize` items (C6), and the pages must end and
/// add up to the data (C4). Each page is asked again before the next one, while the enumeration
/// still runs, and must give the same items (C5); the last page too, where `pageExpired` is legal.
/// Last, C4 on an empty store: a provider launched with no contacts answers one empty page.
struct ContentWalkScenario {
    /// Contacts of the scenario: four pages at the kit's page size, the last one short.
    static let contacts = 13
    /// Pages after which a content enumeration that has not finished fails C4.
    static let pageLimit = 60

    let checker: ConformanceChecker

    func run() async throws {
        try checker.freshData(count: Self.contacts)
        // The walk checks C1–C4 and C6 page by page; an error in it is C1's (the provider did not answer).
        checker.checking(.c1)
        let pageSize = checker.options.pageSize
        var page = SyncPosition.initial
        var walked: [(SyncPosition, ProbeResult)] = []
        var seen: [String: Int] = [:]
        var union: [String: ContactRecord] = [:]
        var firstMarker: Data?
        var finished = false
        for index in 0..<Self.pageLimit {
            let result = try await checker.subject.probe(ProbeRequest(kind: .content, position: page, size: pageSize))
            walked.append((page, result))
            let step = "content page \(index + 1), enumerateContent(in: \(page))"
            // C5 while the enumeration still runs: the page again before the next one, as a system
            // relaunched before committing it asks (R24, R35). The walk goes on from the repeat, which
            // from the initial page is a new enumeration (the provider may serve only its latest).
            var resumed = result
            if case .page = result.end, !result.timedOut, result.violations.isEmpty, !checker.failed(.c5) {
                resumed = try await checker.repeatPage(page, number: index + 1, first: result) ?? result
            }
            if let violation = result.violations.first {
                checker.record(.c1, Finding(explanation: violation.message, step: step, transcript: result.transcript))
            }
            if result.timedOut {
                checker.contentTimedOut = true
                checker.record(
                    .c1,
                    Finding(
                        explanation:
                            "enumerateContent did not return within the page timeout of \(checker.options.timeoutSeconds) s: the system ends such a page with enumerationTimeout (ContactProviderError.enumerationTimeout)",
                        step: step, transcript: result.transcript))
                checker.recordBlocked(
                    [.c2, .c3, .c4, .c5, .c6], step: step,
                    because: "C1 failed: a content page took longer than the page timeout (enumerationTimeout)",
                    transcript: [])
                return
            }
            guard let end = result.end else {
                checker.record(
                    .c1,
                    Finding(
                        explanation:
                            "enumerateContent returned without calling didFinishEnumeratingPage, didFinishEnumeratingContent or …WithError (R20: the terminal call must come before returning)",
                        step: step, transcript: result.transcript))
                return
            }
            if result.items.count > pageSize {
                checker.record(
                    .c6,
                    Finding(
                        explanation:
                            "a page delivered \(result.items.count) \(result.items.count == 1 ? "item" : "items"); suggestedPageSize is \(pageSize)",
                        step: step, transcript: result.transcript))
            }
            for item in result.items {
                if let earlier = seen[item.identifier] {
                    // The earlier page's calls beside this one's: its didFinishEnumeratingPage(upTo:)
                    // is where an off-by-one shows (issue 43, item 8).
                    let (earlierPosition, earlierResult) = walked[earlier]
                    let symptom =
                        "identifier \(item.identifier) was delivered on page \(earlier + 1) and again on page \(index + 1)"
                    let mistake = LikelyMistake.pageOffsetOneShort(
                        identifier: item.identifier, earlier: earlier, earlierPosition: earlierPosition,
                        earlierResult: earlierResult, later: index)
                    checker.record(
                        .c3,
                        Finding(
                            explanation: LikelyMistake.explained(symptom, by: mistake), step: step,
                            transcript: earlierResult.transcript + result.transcript))
                }
                seen[item.identifier] = index
                union[item.identifier] = item
            }
            switch end {
            case .error(let code, let message):
                checker.record(
                    .c4,
                    Finding(
                        explanation: "the provider ended a page with an error: \(code ?? message)", step: step,
                        transcript: result.transcript))
                return
            case .batch:
                return
            case .page(let first):
                checkMarker(
                    first.generationMarker, page: page, first: &firstMarker, step: step, transcript: result.transcript)
                var next = first
                if page == .initial, case .page(let again) = resumed.end, again.offset == first.offset {
                    // The repeat began the enumeration the walk now follows, under its own marker.
                    next = again
                    firstMarker = again.generationMarker
                }
                if next == page {
                    checker.record(
                        .c4,
                        Finding(
                            explanation:
                                "didFinishEnumeratingPage(upTo:) returned the same page; the enumeration would never end",
                            step: step, transcript: result.transcript))
                    return
                }
                page = next
            case .content(let marker):
                checkMarker(marker, page: page, first: &firstMarker, step: step, transcript: result.transcript)
                finished = true
            }
            if finished { break }
        }
        guard finished else {
            checker.record(
                .c4,
                Finding(
                    explanation:
                        "content enumeration did not finish within \(Self.pageLimit) pages for \(Self.contacts) contacts",
                    step: "content page \(Self.pageLimit)"))
            return
        }
        if let difference = checker.difference(system: Array(union.values), data: try checker.backend.contacts()) {
            checker.record(
                .c4,
                Finding(
                    explanation: "the pages do not add up to the data: \(difference)",
                    step: "after the last content page",
                    transcript: walked.flatMap(\.1.transcript)))
        }
        // C5 for the last page: the system asks it again only when it did not commit it, so the
        // enumeration still runs for the system, but the provider may have let its snapshot go with
        // the last page (an event log it clears): pageExpired restarts the enumeration (R27), legal.
        checker.checking(.c5)
        if let (position, last) = walked.last, !checker.failed(.c5) {
            _ = try await checker.repeatPage(position, number: walked.count, first: last, expiryAllowed: true)
        }
        guard !checker.failed(.c4), !checker.contentTimedOut else { return }
        try await emptyStore()
    }

    /// C4 on an empty store (item 12), as on a fresh install: a provider launched with no contacts
    /// answers one page with none and a marker.
    private func emptyStore() async throws {
        checker.checking(.c4)
        try checker.freshData(count: 0)
        try await checker.subject.restart()
        let (empty, transcript) = try await checker.systemSync(maxSteps: .max)
        if let error = empty.error {
            checker.record(
                .c4,
                Finding(
                    explanation: "the content enumeration of an empty store failed: \(error.message)",
                    step: "content enumeration of an empty store", transcript: transcript))
        } else if let extra = try checker.subject.systemContacts().first {
            checker.record(
                .c4,
                Finding(
                    explanation:
                        "the store is empty, but the system received \(ConformanceChecker.shown(extra.identifier))",
                    step: "content enumeration of an empty store", transcript: transcript))
        }
    }

    /// C2: `marker` is non-empty and the same as the enumeration's `first` (which it sets when nil).
    private func checkMarker(_ marker: Data, page: SyncPosition, first: inout Data?, step: String, transcript: [String])
    {
        if marker.isEmpty {
            checker.record(
                .c2,
                Finding(
                    explanation: "an empty generation marker was returned (R23a: it must be non-empty)", step: step,
                    transcript: transcript))
            return
        }
        if let first, first != marker {
            checker.record(
                .c2,
                Finding(
                    explanation:
                        "the generation marker changed during one content enumeration: \(describe(first)) then \(describe(marker))",
                    step: step, transcript: transcript))
        }
        if first == nil { first = marker }
    }

    /// A generation marker as a report prints it: its text when it is UTF-8, else base64.
    private func describe(_ marker: Data) -> String {
        String(data: marker, encoding: .utf8).map { "\"\($0)\"" } ?? marker.base64EncodedString()
    }
}
