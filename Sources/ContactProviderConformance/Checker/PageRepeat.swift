import AppGroupStore
import ContactProviderSystem
import Foundation

/// Asking a content page again, as a system relaunched before committing it does (C5): the content
/// walk repeats each page once, ``PageOrderScenario`` each page several times and in a relaunched
/// provider.
extension ConformanceChecker {
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
}
