import AppGroupStore
import ContactProviderSystem
import Foundation

extension ConformanceChecker {
    /// C1–C6: walk every content page with probes, then walk them again.
    func contentRules() async throws {
        try freshData(count: 13)
        // The walk checks C1–C4 and C6 page by page; an error in it is C1's (the provider did not answer).
        checking(.c1)
        let pageSize = options.pageSize
        var page = SyncPosition.initial
        var walked: [(SyncPosition, ProbeResult)] = []
        var seen: [String: Int] = [:]
        var union: [String: ContactRecord] = [:]
        var firstMarker: Data?
        var finished = false
        for index in 0..<60 {
            let result = try await subject.probe(ProbeRequest(kind: .content, position: page, size: pageSize))
            walked.append((page, result))
            let step = "content page \(index + 1), enumerateContent(in: \(page))"
            // C5 while the enumeration still runs: the page again before the next one, as a system
            // relaunched before committing it asks (R24, R35). The walk goes on from the repeat, which
            // from the initial page is a new enumeration (the provider may serve only its latest).
            var resumed = result
            if case .page = result.end, !result.timedOut, result.violations.isEmpty, !failed(.c5) {
                resumed = try await repeatPage(page, number: index + 1, first: result) ?? result
            }
            if let violation = result.violations.first {
                record(.c1, Finding(explanation: violation.message, step: step, transcript: result.transcript))
            }
            if result.timedOut {
                contentTimedOut = true
                record(
                    .c1,
                    Finding(
                        explanation:
                            "enumerateContent did not return within the page timeout of \(options.timeoutSeconds) s: the system ends such a page with enumerationTimeout (ContactProviderError.enumerationTimeout)",
                        step: step, transcript: result.transcript))
                recordBlocked(
                    [.c2, .c3, .c4, .c5, .c6], step: step,
                    because: "C1 failed: a content page took longer than the page timeout (enumerationTimeout)",
                    transcript: [])
                return
            }
            guard let end = result.end else {
                record(
                    .c1,
                    Finding(
                        explanation:
                            "enumerateContent returned without calling didFinishEnumeratingPage, didFinishEnumeratingContent or …WithError (R20: the terminal call must come before returning)",
                        step: step, transcript: result.transcript))
                return
            }
            if result.items.count > pageSize {
                record(
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
                    record(
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
                record(
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
                    record(
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
            record(
                .c4,
                Finding(
                    explanation: "content enumeration did not finish within 60 pages for 13 contacts",
                    step: "content page 60"))
            return
        }
        if let difference = difference(system: Array(union.values), data: try backend.contacts()) {
            record(
                .c4,
                Finding(
                    explanation: "the pages do not add up to the data: \(difference)",
                    step: "after the last content page",
                    transcript: walked.flatMap(\.1.transcript)))
        }
        // C5 for the last page: the system asks it again only when it did not commit it, so the
        // enumeration still runs for the system, but the provider may have let its snapshot go with
        // the last page (an event log it clears): pageExpired restarts the enumeration (R27), legal.
        checking(.c5)
        if let (position, last) = walked.last, !failed(.c5) {
            _ = try await repeatPage(position, number: walked.count, first: last, expiryAllowed: true)
        }
        guard !failed(.c4), !contentTimedOut else { return }
        try await emptyStore()
    }

    /// C4 on an empty store (item 12), as on a fresh install: a provider launched with no contacts
    /// answers one page with none and a marker.
    private func emptyStore() async throws {
        checking(.c4)
        try freshData(count: 0)
        try await subject.restart()
        let (empty, transcript) = try await systemSync(maxSteps: .max)
        if let error = empty.error {
            record(
                .c4,
                Finding(
                    explanation: "the content enumeration of an empty store failed: \(error.message)",
                    step: "content enumeration of an empty store", transcript: transcript))
        } else if let extra = try subject.systemContacts().first {
            record(
                .c4,
                Finding(
                    explanation: "the store is empty, but the system received \(Self.shown(extra.identifier))",
                    step: "content enumeration of an empty store", transcript: transcript))
        }
    }

    /// C5: asks the page at `position` again, `times` times, as a system relaunched before committing
    /// it does (R26: the same page gives the same items), and records a difference. Returns the last
    /// repeat, or nil when one differed. With `expiryAllowed` (the last page, or a relaunched provider),
    /// `pageExpired` is accepted: a provider that let its snapshot go once it handed the last page over,
    /// or lost it with its process, makes the system start again (R27).
    @discardableResult
    func repeatPage(
        _ position: SyncPosition, number: Int, first: ProbeResult, expiryAllowed: Bool = false, times: Int = 1,
        step: String = "content page"
    ) async throws -> ProbeResult? {
        var again = first
        for _ in 0..<times {
            again = try await subject.probe(ProbeRequest(kind: .content, position: position, size: options.pageSize))
            if expiryAllowed, Self.isPageExpired(again) { return again }
            guard Self.samePage(again, first, fromInitialPage: position == .initial) else {
                let why =
                    Self.isPageExpired(again)
                    ? "answered pageExpired for a page of an enumeration that still runs (the system had not received the last page): the provider must serve every page of its snapshot until the last one is handed over (R26)"
                    : "gave different items or a different next page (\(first.items.map(\.identifier)) then \(again.items.map(\.identifier)))"
                record(
                    .c5,
                    Finding(
                        explanation: "enumerating \(step) \(number) again \(why)",
                        step: "\(step) \(number) repeated, enumerateContent(in: \(position))",
                        transcript: first.transcript + again.transcript))
                return nil
            }
        }
        return again
    }

    /// Whether the call ended with `pageExpired`.
    static func isPageExpired(_ result: ProbeResult) -> Bool {
        if case .error(let code, _) = result.end { return code == "pageExpired" }
        return false
    }

    /// Whether two enumerations of one page gave the same page: the same items in any order (the
    /// system commits a page as a whole) and the same end. From the initial page a repeat is a new
    /// content enumeration, which may carry a new generation marker (R23 fixes the marker within one
    /// enumeration, not across them: issue 30, item 2).
    static func samePage(_ one: ProbeResult, _ other: ProbeResult, fromInitialPage: Bool) -> Bool {
        let byIdentifier = { (result: ProbeResult) in result.items.sorted { $0.identifier < $1.identifier } }
        guard byIdentifier(one) == byIdentifier(other) else { return false }
        guard fromInitialPage else { return one.end == other.end }
        switch (one.end, other.end) {
        case (.content, .content): return true
        case (.page(let next), .page(let otherNext)): return next.offset == otherNext.offset
        default: return one.end == other.end
        }
    }

    private func checkMarker(_ marker: Data, page: SyncPosition, first: inout Data?, step: String, transcript: [String])
    {
        if marker.isEmpty {
            record(
                .c2,
                Finding(
                    explanation: "an empty generation marker was returned (R23a: it must be non-empty)", step: step,
                    transcript: transcript))
            return
        }
        if let first, first != marker {
            record(
                .c2,
                Finding(
                    explanation:
                        "the generation marker changed during one content enumeration: \(describe(first)) then \(describe(marker))",
                    step: step, transcript: transcript))
        }
        if first == nil { first = marker }
    }

    func describe(_ marker: Data) -> String {
        String(data: marker, encoding: .utf8).map { "\"\($0)\"" } ?? marker.base64EncodedString()
    }
}
