import AppGroupStore
import ContactProviderSystem
import Foundation

/// The times of one size's calls, in milliseconds, measured where the provider runs.
struct CallTimes {
    /// How many contacts the store held.
    var contacts: Int
    /// Each content page's call.
    var pages: [Double] = []
    /// Each change batch's call (a change sync's, then idle ones from the same anchor).
    var batches: [Double] = []

    /// The median of `times` (0 for none): a page that loaded the store once, or one a busy
    /// machine delayed, does not move it.
    static func median(_ times: [Double]) -> Double {
        guard !times.isEmpty else { return 0 }
        let sorted = times.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// S1, S2: the content and change rules at the app's size (issue 27, item 6).
///
/// The store is filled with ``ConformanceOptions/contacts`` contacts and synced with the system's
/// own page and batch sizes (not the kit's small ones), every call timed where the provider
/// runs. S1: the full sync and a change sync finish, no call over the page limit (R41), and the
/// system holds the data. S2: the same calls with one page of contacts give each call's cost
/// without the store; the growth between the two sizes, projected to the system's item limit
/// (R42, 1,000,000), must stay within the page limit — a page that reads the whole store costs
/// a few milliseconds at 1,000 contacts and passes every other rule, and times out at scale.
struct SizeScenario {
    let checker: ConformanceChecker

    func run() async throws {
        guard let size = checker.options.contacts else { return }
        let limits = DomainConfiguration()
        try useSystemLimits(pageSize: limits.pageSize, batchSize: limits.batchSize)
        defer { try? useSystemLimits(pageSize: checker.options.pageSize, batchSize: checker.options.batchSize) }

        // S2's reference: one whole page of contacts, so that its pages carry as many items as the
        // pages at size and only the store around them differs.
        var reference: CallTimes?
        if size >= 10 * limits.pageSize {
            checker.checking(.s2)
            guard let measured = try await timedSyncs(contacts: limits.pageSize, limits: limits, rule: .s2) else {
                return
            }
            reference = measured
        }
        checker.checking(.s1)
        guard let atSize = try await timedSyncs(contacts: size, limits: limits, rule: .s1) else { return }
        let limit = checker.options.timeoutSeconds * 1000
        let slowestPage = atSize.pages.enumerated().max { $0.element < $1.element }
        checker.note(
            .s1,
            "\(Self.counted(size, "contact")): \(Self.counted(atSize.pages.count, "content page")) (median \(Self.ms(CallTimes.median(atSize.pages))), slowest \(Self.ms(slowestPage?.element ?? 0)), page \((slowestPage?.offset ?? 0) + 1)) and \(Self.counted(atSize.batches.count, "change batch", plural: "change batches")) (slowest \(Self.ms(atSize.batches.max() ?? 0))), against the page limit of \(Self.ms(limit))"
        )
        guard let reference else {
            checker.note(
                .s2,
                "not measured: the growth is measured from 10 times the \(Self.counted(limits.pageSize, "contact")) of one page (--contacts \(10 * limits.pageSize) or more)"
            )
            return
        }
        checkGrowth(
            reference: reference, atSize: atSize, limit: limit, itemsLimit: limits.itemsLimit, pageSize: limits.pageSize
        )
    }

    /// The page and batch sizes the system suggests from the next sync on.
    private func useSystemLimits(pageSize: Int, batchSize: Int) throws {
        try SystemClient(appGroup: checker.subject.paths.appGroup, domain: checker.subject.paths.domain)
            .updateConfiguration {
                $0.pageSize = pageSize
                $0.batchSize = batchSize
            }
    }

    /// Fills the store with `count` contacts, syncs them from an empty system store in a fresh
    /// provider, makes ten edits and syncs them, then asks three times for the changes from the
    /// anchor it reached (nothing new); every call timed. A failure is `rule`'s, and gives nil.
    private func timedSyncs(contacts count: Int, limits: DomainConfiguration, rule: ConformanceRule) async throws
        -> CallTimes?
    {
        checker.options.onProgress?("filling the store with \(Self.counted(count, "contact"))")
        try checker.backend.reset()
        try checker.subject.resetSystem()
        checker.scenarioData.startDataSet()
        var data = (0..<count).map { _ in checker.makeContact() }
        try checker.backend.add(contentsOf: data)
        try await checker.subject.restart()
        var times = CallTimes(contacts: count)
        checker.options.onProgress?("syncing \(Self.counted(count, "contact")) with pages of \(limits.pageSize)")
        let pages = count / limits.pageSize + 2
        let (content, contentCalls) = try await checker.systemSync(maxSteps: .max, expectedCalls: pages)
        let contentStep = "full sync of \(Self.counted(count, "contact"))"
        guard syncFinished(content, contentCalls, step: contentStep, rule: rule) else { return nil }
        times.pages = content.callMilliseconds ?? []
        guard try systemHolds(try checker.backend.contacts(), step: contentStep, transcript: contentCalls, rule: rule)
        else {
            return nil
        }

        // Ten edits, as an app makes between two syncs: four changed, four added, two deleted.
        for index in 0..<min(4, data.count) {
            data[index] = checker.edited(data[index])
            try checker.backend.update(data[index])
        }
        for _ in 0..<4 { try checker.backend.add(checker.makeContact()) }
        for record in data.suffix(2) where data.count > 6 { try checker.backend.delete(identifier: record.identifier) }
        let (changes, changeCalls) = try await checker.systemSync(maxSteps: .max, expectedCalls: 3)
        let changeStep = "change sync of 10 edits among \(Self.counted(count, "contact"))"
        guard syncFinished(changes, changeCalls, step: changeStep, rule: rule) else { return nil }
        times.batches = changes.callMilliseconds ?? []
        guard try systemHolds(try checker.backend.contacts(), step: changeStep, transcript: changeCalls, rule: rule)
        else {
            return nil
        }
        if let anchor = changes.anchor {
            for _ in 0..<3 {
                let idle = try await checker.subject.probe(
                    ProbeRequest(kind: .changes, position: anchor, size: limits.batchSize))
                if !idle.timedOut { times.batches.append(idle.milliseconds) }
            }
        }
        if count <= limits.pageSize {
            // One page of contacts is one sample; the same page again gives the median something to hold.
            for _ in 0..<4 {
                let again = try await checker.subject.probe(
                    ProbeRequest(kind: .content, position: .initial, size: limits.pageSize))
                if !again.timedOut { times.pages.append(again.milliseconds) }
            }
        }
        return times
    }

    /// Whether the sync completed; if not, `rule` fails with the system's error in words.
    private func syncFinished(_ report: SyncReport, _ transcript: [String], step: String, rule: ConformanceRule)
        -> Bool
    {
        guard let error = report.error else { return true }
        let explanation: String
        if error.code == ProviderErrorCode.enumerationTimeout.rawValue {
            let call = (report.callMilliseconds?.count).map { " (call \($0))" } ?? ""
            explanation =
                "a call took longer than the page limit of \(Self.ms(checker.options.timeoutSeconds * 1000))\(call): \(error.message)"
        } else {
            explanation = "the sync failed: \(error.message)"
        }
        checker.record(rule, Finding(explanation: explanation, step: step, transcript: transcript))
        return false
    }

    /// Whether the system holds `data`; if not, `rule` fails with the difference.
    private func systemHolds(_ data: [ContactRecord], step: String, transcript: [String], rule: ConformanceRule)
        throws -> Bool
    {
        guard let difference = checker.difference(system: try checker.subject.systemContacts(), data: data) else {
            return true
        }
        checker.record(rule, Finding(explanation: "after the sync, \(difference)", step: step, transcript: transcript))
        return false
    }

    /// S2: the median call at each size, the growth between them per contact, and that growth
    /// carried on to the system's item limit.
    private func checkGrowth(reference: CallTimes, atSize: CallTimes, limit: Double, itemsLimit: Int, pageSize: Int) {
        let added = atSize.contacts - reference.contacts
        var measured: [String] = []
        for (what, whats, small, large) in [
            ("content page", "content pages", reference.pages, atSize.pages),
            ("change batch", "change batches", reference.batches, atSize.batches),
        ] {
            let smallMedian = CallTimes.median(small)
            let largeMedian = CallTimes.median(large)
            let perContact = max(0, largeMedian - smallMedian) / Double(added)
            let projected = largeMedian + perContact * Double(itemsLimit - atSize.contacts)
            let figures =
                "median \(Self.ms(largeMedian)) at \(Self.counted(atSize.contacts, "contact")) against \(Self.ms(smallMedian)) at \(Self.counted(reference.contacts, "contact"))"
            if projected > limit {
                checker.record(
                    .s2,
                    Finding(
                        explanation:
                            "a \(what)'s time grows with the address book: \(figures), about \(String(format: "%.1f", perContact * 1000)) µs more for every contact in the store; at \(Self.counted(itemsLimit, "contact")) (the system's item limit, R42) a \(what) would take about \(Self.ms(projected)), past the page limit of \(Self.ms(limit)) (R41). Read only the page's contacts (an index, a cursor, an offset into a sorted snapshot), not the whole store, on each call",
                        step:
                            "\(whats) at \(Self.counted(reference.contacts, "contact")) and at \(Self.counted(atSize.contacts, "contact"))"
                    ))
                return
            }
            var text =
                "\(whats): \(figures), about \(Self.ms(projected)) projected to \(Self.counted(itemsLimit, "contact"))"
            // Within the limit, a page that grows with the store still makes a full sync quadratic:
            // said, so a developer sees what each page's growth costs the whole sync.
            if what == "content page", projected > 2 * max(smallMedian, 1) {
                let pages = (itemsLimit + pageSize - 1) / pageSize
                let fullSync = Double(pages) * (smallMedian + projected) / 2
                text +=
                    " (a full sync of \(Self.counted(itemsLimit, "contact")), \(Self.counted(pages, "page")) from \(Self.ms(smallMedian)) to \(Self.ms(projected)), would take about \(Self.duration(fullSync)))"
            }
            measured.append(text)
        }
        checker.note(.s2, measured.joined(separator: "; ") + "; the page limit is \(Self.ms(limit))")
    }

    /// `count` and the noun, singular for one: `1 content page`, `100 content pages`.
    static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// A long time as a report prints it: `40 s`, `12 min`, `2.1 h`.
    static func duration(_ milliseconds: Double) -> String {
        let seconds = milliseconds / 1000
        if seconds < 120 { return ms(milliseconds) }
        if seconds < 7200 { return String(format: "%.0f min", seconds / 60) }
        return String(format: "%.1f h", seconds / 3600)
    }

    /// `milliseconds` as a report prints it: `12 ms`, `1.5 s`.
    static func ms(_ milliseconds: Double) -> String {
        milliseconds >= 1000 ? String(format: "%.1f s", milliseconds / 1000) : String(format: "%.0f ms", milliseconds)
    }
}
